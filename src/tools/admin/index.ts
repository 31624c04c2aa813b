import type { AnyTool } from '../../core/tool.js';
import { getApproval } from './get-approval.js';
import { listApprovals } from './list-approvals.js';
import { proposePolicy } from './propose-policy.js';

/**
 * Admin tools (toolset `admin`): reading approvals, so whoever asked for something that needs
 * approval can follow it, and proposing a change of the governed policy (it waits for approvers
 * like any call). Deciding on approvals is never a tool: people approve from Slack or the CLI.
 */
export const adminTools: readonly AnyTool[] = [getApproval, listApprovals, proposePolicy];
