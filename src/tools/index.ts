import { Registry } from '../core/registry.js';
import type { AnyTool } from '../core/tool.js';
import { adminTools } from './admin/index.js';
import { alertTools } from './alerts/index.js';
import { bankingTools, moneyTools } from './banking/index.js';
import { issuingATools } from './issuing-a/index.js';
import { issuingBTools } from './issuing-b/index.js';
import { notificationTools } from './notifications/index.js';
import { payeeTools } from './payees/index.js';

/**
 * Every tool: one per operation of the service (plus the money-movement composites), the balance
 * alerts, and the admin tools that read bankops' own approvals.
 */
export const ALL_TOOLS: readonly AnyTool[] = [
  ...bankingTools,
  ...moneyTools,
  ...alertTools,
  ...payeeTools,
  ...issuingATools,
  ...issuingBTools,
  ...notificationTools,
  ...adminTools,
];

export function createRegistry(tools: readonly AnyTool[] = ALL_TOOLS): Registry {
  return new Registry(tools);
}
