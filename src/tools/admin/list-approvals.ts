import { z } from 'zod';
import { optional } from '../../core/optional.js';
import { defineTool } from '../../core/tool.js';
import { ApprovalViewSchema, approvalStateField } from './approval-schema.js';
import { approvalsOf } from './approvals-of.js';

export const listApprovals = defineTool({
  name: 'list_approvals',
  title: 'List approvals',
  description:
    'Lists approvals, newest first, optionally of one state (pending: still waiting) or one tool: state, requester, approvals so far, results. Secrets are redacted.',
  toolset: 'admin',
  input: z.object({
    state: approvalStateField.optional().describe('Only approvals in this state, e.g. pending.'),
    tool: z.string().trim().min(1).optional().describe('Only approvals of this tool, e.g. create_payout.'),
    limit: z.number().int().min(1).max(100).optional().describe('How many (default 20).'),
  }),
  output: z.object({
    approvals: z.array(ApprovalViewSchema).describe('The approvals, newest first.'),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  async run(input, ctx) {
    const approvals = await approvalsOf(ctx).list({
      ...optional('state', input.state),
      ...optional('tool', input.tool),
      limit: input.limit ?? 20,
    });
    return { approvals };
  },
});
