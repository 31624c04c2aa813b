import { z } from 'zod';
import { InputError } from '../../core/input-error.js';
import { notFoundIn } from '../../core/not-found.js';
import { defineTool } from '../../core/tool.js';
import { ApprovalViewSchema, approvalIdField } from './approval-schema.js';
import { approvalsOf } from './approvals-of.js';

export const getApproval = defineTool({
  name: 'get_approval',
  title: 'Get an approval',
  description:
    'Shows one approval: state, approvals so far, what approvers see, and once executed the result (e.g. payoutId) or the error. Follow a pending_approval with it.',
  toolset: 'admin',
  input: z.object({ approvalId: approvalIdField }),
  output: ApprovalViewSchema,
  // Reads bankops' own database, not the service.
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  async run(input, ctx) {
    const view = await approvalsOf(ctx).get(input.approvalId);
    if (view === undefined)
      throw new InputError(
        'approvalId',
        `${notFoundIn(`no approval ${input.approvalId}`, ctx.store)}; list_approvals shows the recent ones`,
      );
    return view;
  },
});
