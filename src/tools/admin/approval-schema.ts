import { z } from 'zod';
import { APPROVAL_STATES } from '../../core/approvals/view-schema.js';

export { ApprovalViewSchema } from '../../core/approvals/view-schema.js';

/** The approval id the executor hands out with `pending_approval`. */
export const approvalIdField = z
  .string()
  .trim()
  .regex(/^apr_[A-Za-z0-9_-]+$/, 'must be an approval id: apr_ followed by letters and digits')
  .describe('From a pending_approval result or list_approvals.');

export const approvalStateField = z
  .enum(APPROVAL_STATES)
  .describe(
    'pending (waiting for approvers), approved, executing, succeeded (sent), failed, rejected, expired, cancelled, or unresolved (outcome unknown: a person reconciles it).',
  );
