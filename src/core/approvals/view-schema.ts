import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';
import { MoneySchema } from '../money-schema.js';
import { PayeeHistorySchema } from '../payee-facts.js';
import { PolicyDiffChangeSchema } from '../policy/diff-schema.js';

/**
 * DESIGN decision 4: `pending → approved → executing → succeeded | failed`, the three ends
 * (`rejected`, `expired`, `cancelled`), and `unresolved`: the outcome stayed unknown after bounded
 * re-sends, and a person must reconcile it with the service (by its request id).
 */
export const APPROVAL_STATES = [
  'pending',
  'approved',
  'executing',
  'succeeded',
  'failed',
  'rejected',
  'expired',
  'cancelled',
  'unresolved',
] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/**
 * States in which an approval is still open: an identical request joins it instead of opening
 * another (`unresolved` too: its money may have left).
 */
/** Why an approval in this state takes no vote, rejection or cancellation: what became of it. */
const NO_LONGER: Record<ApprovalState, string> = {
  pending: 'is still waiting for approvers',
  approved: 'is already approved and running',
  executing: 'is already approved and running',
  succeeded: 'was already approved and has run',
  failed: 'was already approved, and failed when it ran',
  rejected: 'was already rejected',
  expired: 'has expired',
  cancelled: 'was cancelled',
  unresolved: 'was already approved and sent; its outcome is being reconciled',
};

/** `was already approved and has run`: what became of an approval, for a refusal. */
export const closedWords = (state: ApprovalState): string => NO_LONGER[state];

/** `approval apr_… was already approved and has run; it takes no more decisions`. */
export const closedReason = (id: string, state: ApprovalState): string =>
  `approval ${id} ${NO_LONGER[state]}; it takes no more decisions`;

export const OPEN_STATES: readonly ApprovalState[] = ['pending', 'approved', 'executing', 'unresolved'];

// The title names the shape where a JSON Schema writes it once and refers to it (MCP's tools/list).
export { MoneySchema };
export type Money = z.infer<typeof MoneySchema>;

export const FailureSchema = z.object({
  message: z.string().describe("The service's message, or what went wrong."),
  kind: z.enum(ERROR_CODES).describe('What kind of failure (service: the service refused).'),
  httpStatus: z.number().optional(),
  code: z.number().optional().describe("The service's error code."),
  requestId: z.string().optional(),
  operation: z.string().optional(),
  issues: z.array(z.string()).optional().describe('Field-level problems.'),
  attempts: z.number().int().optional().describe('Times sent, if more than once.'),
  elapsedMs: z.number().optional().describe('Time tried (ms).'),
});
export type Failure = z.infer<typeof FailureSchema>;

/** A balance before and after the money leaves, in the currency debited. */
const BalanceSchema = z.object({ available: MoneySchema, after: MoneySchema });

/**
 * What will happen, as facts every front end can put in words (src/present): the payee by name, the
 * card by its last four and holder, the balance now and after. Kept with the approval.
 */
export const PreviewFactsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('payout'),
    payee: z.object({
      id: z.string(),
      /** False when bankops did not create this payee, so it knows nothing but its id. */
      known: z.boolean(),
      name: z.string().optional(),
      country: z.string().optional(),
      currency: z.string().optional(),
      rail: z.string().optional(),
      accountMasked: z.string().optional(),
      /** The payee's history when the approval opened (docs/approvals.md "Payee facts"). */
      history: PayeeHistorySchema.optional(),
    }),
    sourceAccountId: z.string(),
    send: MoneySchema,
    receive: MoneySchema,
    rate: z.number().optional(),
    fees: MoneySchema,
    totalDebit: MoneySchema,
    balance: BalanceSchema.optional(),
    purpose: z.string(),
    reference: z.string().optional(),
  }),
  z.object({
    kind: z.literal('conversion'),
    sell: MoneySchema,
    buy: MoneySchema,
    rate: z.number().optional(),
    fees: MoneySchema.optional(),
    totalDebit: MoneySchema,
    balance: BalanceSchema.optional(),
  }),
  z.object({
    kind: z.literal('card_status'),
    family: z.enum(['A', 'B']),
    cardId: z.string(),
    last4: z.string().optional(),
    cardType: z.string().optional(),
    holder: z.string().optional(),
    from: z.string().optional(),
    to: z.string(),
    /** LOST, STOLEN and BLOCKED cannot be undone (the spec: permanently blocked). */
    permanent: z.boolean(),
  }),
  z.object({
    kind: z.literal('wallet_transfer'),
    cardholderId: z.string(),
    holder: z.string().optional(),
    to: z.string(),
    amount: MoneySchema,
    description: z.string(),
    balance: BalanceSchema.optional(),
  }),
  z.object({
    kind: z.literal('policy_change'),
    /** The version in force when it was proposed: it lands only while that one is still in force. */
    from: z.object({ version: z.number(), hash: z.string() }),
    /** The hash of the proposed policy's parsed form (docs/policy.md "Versions"). */
    hash: z.string(),
    /** What changes, over the policy as a whole (src/core/policy/diff.ts); src/present puts it in words. */
    changes: z.array(PolicyDiffChangeSchema),
  }),
  z.object({
    kind: z.literal('subscription_delete'),
    event: z.string(),
    program: z.string(),
    type: z.string().optional(),
    destination: z.string().optional(),
  }),
]);
export type PreviewFacts = z.infer<typeof PreviewFactsSchema>;

/**
 * What approvers are shown before a money movement, kept with the approval. `bound` is the most the
 * execution may debit: at execution the tool quotes again and refuses to go beyond it.
 */
export const PreviewSchema = z.object({
  /** One line for people and logs; front ends put `facts` in words of their own. */
  summary: z.string(),
  facts: PreviewFactsSchema.optional(),
  /** The quote or record behind the facts, in full. */
  details: z.record(z.string(), z.unknown()),
  bound: MoneySchema.optional(),
  /**
   * What the payee (or the company, for a conversion) receives in the quote shown. Sealed with the
   * tolerance into the least a fresh quote must deliver: a fixed debit at a worse rate is refused too.
   */
  receive: MoneySchema.optional(),
});
export type Preview = z.infer<typeof PreviewSchema>;

/**
 * The most an approved money movement may debit and the least it must deliver, fixed when the
 * approval opens (or re-opens with a new quote): the quote shown plus or minus the tolerance.
 */
export const ApprovalBoundSchema = z.object({
  /** What the quote shown to approvers would debit (its total debit, in the funding currency). */
  quoted: MoneySchema,
  tolerancePercent: z.number(),
  /** `quoted` plus the tolerance, rounded down to the currency's minor unit. */
  max: MoneySchema,
  /** What the quote shown delivers, less the tolerance, rounded up. */
  minReceive: MoneySchema.optional(),
});
export type ApprovalBound = z.infer<typeof ApprovalBoundSchema>;

export const FRONT_ENDS = ['slack', 'mcp', 'cli'] as const;

/** Where a request came from, so its answer goes back there. */
export const OriginSchema = z.object({
  frontEnd: z.enum(FRONT_ENDS),
  /** The requester as people know them (`Alice Lee`, `alice`), for messages. */
  displayName: z.string(),
  /** An address the front end chose to answer to (a Slack channel and thread, a user to DM). */
  replyTo: z.record(z.string(), z.string()).optional(),
});
export type Origin = z.infer<typeof OriginSchema>;

/** After a payout or conversion was sent: what became of it at the service. */
export const SettlementSchema = z.object({
  kind: z.enum(['payout', 'conversion']),
  id: z.string(),
  /** The service's status word (PENDING, PROCESSING, COMPLETED, FAILED, …). */
  status: z.string(),
  /** `settling` while the service has not said a final word; `unknown` when bankops stopped asking. */
  outcome: z.enum(['settling', 'completed', 'failed', 'unknown']),
  checkedAt: z.string(),
  /** Why it is unknown, or the last error while asking. */
  note: z.string().optional(),
});
export type Settlement = z.infer<typeof SettlementSchema>;

/** What anyone may see of an approval: redacted input, never a secret. */
export const ApprovalViewSchema = z.object({
  id: z.string(),
  tool: z.string().describe('The tool that runs once approved.'),
  state: z.enum(APPROVAL_STATES),
  input: z.record(z.string(), z.unknown()).describe('The request, secrets redacted.'),
  requester: z.string().describe('Who asked (actor id).'),
  requesterPerson: z.string().describe('The person who asked.'),
  origin: OriginSchema,
  /** Where the rule wants it decided (a Slack channel), when it names a place. */
  route: z.object({ slackChannel: z.string().optional() }).optional(),
  requiredApprovers: z.number().describe('People who must approve; never the requester.'),
  approverRole: z.string(),
  /** A quorum from several groups: per role, the votes it needs and has (names say it: no description, for the listing's size). */
  groups: z.array(z.object({ role: z.string(), approvers: z.number(), approved: z.number() })).optional(),
  reason: z.string().describe('Why the policy asks for approval.'),
  policyVersion: z.number().optional().describe('The policy version it opened under; its rule stays.'),
  preview: PreviewSchema.optional().describe('What approvers are asked to approve.'),
  bound: ApprovalBoundSchema.optional(),
  attempt: z.number().describe('1, plus one per new quote.'),
  /** Each vote counts only once the voter signs what would run with a passkey (the approval page). */
  stepUp: z.enum(['passkey']).optional(),
  approvals: z
    .array(
      z.object({
        approver: z.string(),
        person: z.string(),
        at: z.string(),
        /** Signed with a passkey over what would run (step-up). */
        signed: z.boolean().optional(),
      }),
    )
    .describe('Approvals of the current attempt so far.'),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string().describe('A pending approval expires then.'),
  decidedBy: z.string().optional().describe('Who rejected, cancelled or reconciled it.'),
  decisionReason: z.string().optional(),
  result: z.record(z.string(), z.unknown()).optional().describe("Once sent: the tool's output, redacted."),
  error: FailureSchema.optional(),
  requestId: z.string().describe('x-request-id at the service.'),
  retryingUntil: z.string().optional().describe('Service not answering: re-sent until then.'),
  quoteExpiresAt: z
    .string()
    .optional()
    .describe(
      'Unresolved: the stored quote a retry would send again holds until then; after it, mark it not sent and ask again.',
    ),
  settlement: SettlementSchema.optional().describe('Once sent: its final status at the service.'),
  /**
   * Run without its missing approvals (break-glass), in words: `cli:ada at <time>: <reason>; review
   * open` (or `closed`). A string, not an object, for the listing's size (`approvals show --json`
   * adds the whole review as `breakGlass`).
   */
  breakGlassSummary: z.string().optional(),
});
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;

/** The kinds of change the feed carries, one per transition (and votes, and settlement). */
export const APPROVAL_EVENT_KINDS = [
  'opened',
  'voted',
  'rejected',
  'cancelled',
  'expired',
  'executing',
  'taken_over',
  'retrying',
  'succeeded',
  'failed',
  'requoted',
  'unresolved',
  'reconciled',
  'settled',
  'break_glass',
] as const;
export type ApprovalEventKind = (typeof APPROVAL_EVENT_KINDS)[number];

/** One change of one approval, in commit order (`seq` is monotonic across processes). */
export const ApprovalEventSchema = z.object({
  seq: z.number(),
  approvalId: z.string(),
  kind: z.enum(APPROVAL_EVENT_KINDS),
  at: z.string(),
  state: z.enum(APPROVAL_STATES),
  attempt: z.number(),
  /** Who made the change (an actor id, `system:approvals`), when someone did. */
  actor: z.string().optional(),
  person: z.string().optional(),
  /** The reason, error or status the change carries. */
  detail: z.string().optional(),
});
export type ApprovalEvent = z.infer<typeof ApprovalEventSchema>;
