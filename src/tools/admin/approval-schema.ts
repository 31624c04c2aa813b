import { z } from 'zod';
import { APPROVAL_STATES } from '../../core/approvals/types.js';

/** The approval id the executor hands out with `pending_approval`. */
export const approvalIdField = z
  .string()
  .trim()
  .regex(/^apr_[A-Za-z0-9_-]+$/, 'must be an approval id: apr_ followed by letters and digits')
  .describe(
    'Approval id from a pending_approval result or list_approvals, e.g. apr_0123456789abcdef01234567.',
  );

export const approvalStateField = z
  .enum(APPROVAL_STATES)
  .describe(
    'pending (waiting for approvers), approved, executing, succeeded, failed (ran and the service refused), rejected, expired or cancelled.',
  );

// Field names say most of it; descriptions only where they would not (this schema is listed twice
// to every assistant, with get_approval and list_approvals).
const MoneySchema = z.object({ amount: z.number(), currency: z.string() });

const FailureSchema = z.object({
  message: z.string().describe("The service's message, or what went wrong."),
  kind: z.string().describe('service, timeout, network, invalid_response, invalid_request or internal.'),
  httpStatus: z.number().optional(),
  code: z.number().optional().describe("The service's error code."),
  requestId: z.string().optional(),
  operation: z.string().optional(),
  issues: z.array(z.string()).optional().describe('Field-level problems.'),
});

/** `ApprovalView` (src/core/approvals/types.ts) as a schema: what anyone may see, input redacted. */
export const ApprovalViewSchema = z.object({
  id: z.string(),
  tool: z.string().describe('The tool that runs once approved.'),
  state: approvalStateField,
  input: z.record(z.string(), z.unknown()).describe('Input of the request, secrets redacted.'),
  requester: z.string().describe('Who asked, e.g. mcp:stdio.'),
  requiredApprovers: z.number().describe('Distinct people who must approve; never the requester.'),
  approverRole: z.string(),
  reason: z.string().describe('Why the policy asks for approval.'),
  preview: z
    .object({
      summary: z.string(),
      details: z.record(z.string(), z.unknown()),
      bound: MoneySchema.optional(),
    })
    .optional()
    .describe(
      'What approvers are asked to approve: for money movement the quote, and the most it may debit.',
    ),
  bound: z
    .object({ quoted: MoneySchema, tolerancePercent: z.number(), max: MoneySchema })
    .optional()
    .describe('Money movement: a fresh quote debiting more than max goes back to the approvers.'),
  attempt: z.number().describe('1, plus one each time a fresh quote went back to the approvers.'),
  approvals: z
    .array(z.object({ approver: z.string(), at: z.string() }))
    .describe('Approvals of the current attempt so far.'),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string().describe('A pending approval expires then; nothing happens.'),
  decidedBy: z.string().optional().describe('Who rejected or cancelled.'),
  decisionReason: z.string().optional(),
  result: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Once succeeded: the tool's output (e.g. payoutId), secrets redacted."),
  error: FailureSchema.optional().describe('Once failed: why.'),
  requestId: z.string().describe('x-request-id of the execution at the service.'),
});
