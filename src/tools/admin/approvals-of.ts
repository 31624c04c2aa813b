import { notConfigured } from '../../core/errors.js';
import type { ApprovalReader, ToolContext } from '../../core/tool.js';

/** The approvals the executor keeps; absent only where approvals are not kept at all. */
export function approvalsOf(ctx: ToolContext): ApprovalReader {
  if (ctx.approvals === undefined)
    throw notConfigured('approvals are not kept here, so there is none to show');
  return ctx.approvals;
}
