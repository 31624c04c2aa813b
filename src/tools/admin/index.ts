import type { AnyTool } from '../../core/tool.js';
import { getApproval } from './get-approval.js';
import { listApprovals } from './list-approvals.js';

/**
 * Admin tools (toolset `admin`): reading approvals, so whoever asked for something that needs
 * approval can follow it. Deciding on approvals is never a tool: people approve from Slack or the CLI.
 */
export const adminTools: readonly AnyTool[] = [getApproval, listApprovals];
