import type { AnyTool } from '../../core/tool.js';
import { createBalanceAlert } from './create-balance-alert.js';
import { deleteBalanceAlert } from './delete-balance-alert.js';
import { listBalanceAlerts } from './list-balance-alerts.js';

/**
 * Balance alerts (toolset `banking`): bankops's own operations, tools like every other, so the
 * policy, the audit log and every front end treat them alike. `bankops serve` checks the alerts
 * as `system:alerts` through the executor (src/core/alerts/check.ts).
 */
export const alertTools: readonly AnyTool[] = [createBalanceAlert, listBalanceAlerts, deleteBalanceAlert];
