import { z } from 'zod';
import type { Actor } from '../policy/types.js';
import {
  APPROVAL_STATES,
  ApprovalBoundSchema,
  FailureSchema,
  OriginSchema,
  PreviewSchema,
  SettlementSchema,
} from './view-schema.js';
import { VoteEvidenceSchema } from './vote-evidence.js';

const ActorSchema = z.custom<Actor>();

/**
 * The re-send window of a long-running process, kept beside the last error seen (retrying.ts), so a
 * replica that takes the approval over keeps the window instead of opening a new one.
 */
export const StoredFailureSchema = FailureSchema.extend({
  retryingSince: z.string().optional(),
  retryingUntil: z.string().optional(),
});
export type StoredFailure = z.infer<typeof StoredFailureSchema>;

/**
 * One approval as the store keeps it, in the engine's terms: typed values, never rows or JSON
 * text (each backend's codec turns them into its columns and back). Absent values are `null`, as
 * in the table. The stores do not parse what they read with this schema: the engine wrote every
 * value, and a parse would cost every read and could reorder an input's keys, which front ends
 * show in the order they were given. It is the type's one source, and the codecs' tests hold them
 * to it.
 */
export const ApprovalSchema = z.object({
  id: z.string(),
  tool: z.string(),
  /** The validated input; tools whose input holds secrets never get here (the executor refuses them). */
  input: z.record(z.string(), z.unknown()),
  /** Actor, tool and canonical input: an identical open request joins this approval. */
  fingerprint: z.string(),
  idempotencyKey: z.string().nullable(),
  requesterId: z.string(),
  /** The requester as they asked (the identity the policy is applied to again). */
  requester: ActorSchema,
  /** The person the policy tied the requester to when the approval opened (or the requester id). */
  requesterPerson: z.string(),
  origin: OriginSchema,
  /** Where the rule wants it decided (a Slack channel), or null for the default. */
  route: z.object({ slackChannel: z.string().optional() }).nullable(),
  state: z.enum(APPROVAL_STATES),
  requiredApprovers: z.number().int(),
  approverRole: z.string(),
  policyRule: z.string(),
  policyReason: z.string(),
  preview: PreviewSchema.nullable(),
  bound: ApprovalBoundSchema.nullable(),
  /** What the tool kept while it ran (a payout's quote), so a re-send sends the same thing. */
  checkpoints: z.record(z.string(), z.unknown()),
  /** The tool's output, redacted. */
  result: z.record(z.string(), z.unknown()).nullable(),
  error: StoredFailureSchema.nullable(),
  requestId: z.string(),
  attempt: z.number().int(),
  /** Sends of this attempt to the service, across processes: bounded before a person must reconcile. */
  sends: z.number().int(),
  owner: z.string().nullable(),
  leaseUntil: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
  decidedBy: z.string().nullable(),
  decisionReason: z.string().nullable(),
  /** After the money was sent: its status at the service, followed until final. */
  settlement: SettlementSchema.nullable(),
  settleNextAt: z.string().nullable(),
  settlePolls: z.number().int(),
  /** `passkey` when each vote must be confirmed with a passkey (the rule's `stepUp`). */
  stepUp: z.literal('passkey').nullable(),
  /**
   * The policy version the approval opened under: its rule (quorum, role, step-up) is that
   * version's, kept on the row. Null on approvals opened before versions, or without a store.
   */
  policyVersion: z.number().int().nullable(),
  /** A quorum from several groups (`approval.from`), fixed when it opens; null for one role. */
  groups: z.array(z.object({ role: z.string(), approvers: z.number().int() })).nullable(),
});
export type Approval = z.infer<typeof ApprovalSchema>;

/** One vote of one attempt. */
export const VoteSchema = z.object({
  approverId: z.string(),
  person: z.string(),
  votedAt: z.string(),
  /** The approver as they voted (the identity the policy is applied to again). */
  approver: ActorSchema,
  /** A signed vote's proof, or null. */
  evidence: VoteEvidenceSchema.nullable(),
});
export type Vote = z.infer<typeof VoteSchema>;

/** A vote to record on an attempt. */
export type NewVote = Vote & { attempt: number };
