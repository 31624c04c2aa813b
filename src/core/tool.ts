import type { z } from 'zod';
import type { AlertBook } from './alerts/book.js';
import type { ApprovalService } from './approvals/types.js';
import type { ApprovalView, Money, Preview, Settlement } from './approvals/view-schema.js';
import type { ServiceClient } from './client/index.js';
import { CodedError, ErrorCode } from './errors.js';
import type { PayeeActor, PayeeDirectory } from './payees.js';
import type { PolicyChanges } from './policy/changes.js';
import type { Toolset } from './toolset.js';
import type { ServiceWebhooks } from './webhooks.js';

export type { Money, Preview } from './approvals/view-schema.js';

export type { Toolset } from './toolset.js';

/** What a tool does to the world, for policy, MCP annotations and the read-only mode. */
export interface ToolHints {
  /** Reads only; never changes anything at the service. */
  readOnly: boolean;
  /** May destroy or irreversibly change something (a permanent card block, a deleted subscription). */
  destructive: boolean;
  /** Calling it again with the same input has no further effect. */
  idempotent: boolean;
  /** Talks to a system outside bankops (the service): true for every service operation. */
  openWorld: boolean;
}

/** Values the configuration already knows, so a user need not repeat them. */
export interface ToolDefaults {
  companyCode: string;
  programCode: string;
  agentCode: string;
  subagentCode: string;
}

/** Reading approvals, nothing more: a tool can never vote, reject or cancel. */
export type ApprovalReader = Pick<ApprovalService, 'get' | 'list'>;

export interface ToolContext {
  client: ServiceClient;
  defaults: ToolDefaults;
  /** Who is acting, for the service's `created_by` / `updated_by` fields. */
  actorName: string;
  /**
   * Who asked for this run, as the payee directory records a change: the identity, its front end
   * and the person behind it (the requester of an approval, not its approvers).
   */
  by?: PayeeActor;
  /** The approval this run executes, when it executes one. */
  approvalId?: string;
  /**
   * Where bankops keeps its own records (`the SQLite file …`, `PostgreSQL at host:5432/db`, never a
   * password), for a "not found" to name where it looked (`notFoundIn`, src/present).
   */
  store?: string;
  /** The time on the core's clock (tests move it). */
  now?(): Date;
  /**
   * The `x-request-id` of the call that creates or moves something. It is derived from the approval
   * or the caller's idempotency key, so a re-sent execution is the same request at the service.
   */
  requestId: string;
  /** The preview the approvers saw, when this run executes an approval. */
  approved?: Preview;
  /**
   * A checkpoint: the first call produces and records the value (durably, when executing an
   * approval); a re-execution after a crash gets the recorded value back. A payout's quote goes
   * through it, so a re-sent payout carries the same quote and request id and the service replays it.
   */
  once<T>(key: string, produce: () => Promise<T>): Promise<T>;
  /** A progress message for long work (Slack, MCP progress notifications, CLI stderr). */
  progress(message: string): void;
  /**
   * The payees bankops created (the service has no beneficiary read endpoint), so approvers see a
   * payee's name and country, not only its id.
   */
  payees?: PayeeDirectory;
  signal?: AbortSignal;
  /**
   * Approvals, read-only, for the tools that let an assistant follow a request it made
   * (`get_approval`, `list_approvals`). Absent where approvals are not kept, and while an approval
   * executes (no tool needs them there).
   */
  approvals?: ApprovalReader;
  /**
   * Where the service delivers events to bankops and the keys it was given, for the tools that
   * relay events to Slack. Absent where nothing receives deliveries.
   */
  webhooks?: ServiceWebhooks;
  /** The balance alerts bankops keeps, for the alert tools. Absent where none are kept. */
  alerts?: AlertBook;
  /** The governed policy's changes, for `propose_policy`. Absent where no versions are kept. */
  policyChanges?: PolicyChanges;
}

/** Input and output schemas are zod objects: MCP wants objects for both. */
export type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/**
 * One operation of the service as a tool. Defined once; MCP, Slack, the CLI, docs and schema
 * snapshots are all derived from it. Methods use method syntax so a tool of specific schemas is
 * assignable to `AnyTool`.
 */
export interface Tool<I extends ObjectSchema = ObjectSchema, O extends ObjectSchema = ObjectSchema> {
  /** `verb_noun`, `[a-z0-9_]`, at most 64 characters, unique. */
  name: string;
  title: string;
  /** For people and AI assistants alike: what, when, units and formats, what it changes, undo. */
  description: string;
  toolset: Toolset;
  input: I;
  output: O;
  hints: ToolHints;
  /** Input or output field names carrying secrets (PINs, codes, card numbers, links, keys). */
  secretFields?: readonly string[];
  /**
   * The input carries a value a person holds and nobody else should see: a PIN, an activation or
   * assignment code, a full card number. Such a tool is not offered in Slack (what is typed there
   * is stored by Slack) nor, by default, over MCP (it would pass through the assistant's model).
   */
  secretInput?: boolean;
  money?(input: z.infer<I>): Money | undefined;
  /** The beneficiary the call pays (a payout's): the payee controls and facts are about it. */
  payee?(input: z.infer<I>): string | undefined;
  /** The account the call takes money from (a payout's): running totals and daily limits count it. */
  sourceAccount?(input: z.infer<I>): string | undefined;
  /**
   * Before an approval is opened: what approvers must see (a quote for money movement, facts in
   * words). Throws a `CodedError` (`insufficient_balance`) when the call cannot succeed, so nobody is
   * asked to approve it.
   */
  preview?(input: z.infer<I>, ctx: ToolContext): Promise<Preview>;
  /**
   * Before each vote: whether the approved call can still succeed (the source balance still covers
   * the debit). Throws a `CodedError` saying why not; the vote is then refused and nothing changes.
   */
  check?(input: z.infer<I>, ctx: ToolContext, approval: ApprovalView): Promise<void>;
  /**
   * After an approved run sent money (a payout or conversion accepted, not yet final): what it is
   * and how to ask what became of it. The engine follows it until final (DESIGN decision 14).
   */
  settlement?(output: z.infer<O>): Pick<Settlement, 'kind' | 'id' | 'status' | 'outcome'> | undefined;
  /** The current status at the service of what `settlement` named. */
  settle?(
    sent: Pick<Settlement, 'kind' | 'id'>,
    ctx: ToolContext,
  ): Promise<Pick<Settlement, 'status' | 'outcome'>>;
  run(input: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>>;
}

export type AnyTool = Tool<ObjectSchema, ObjectSchema>;

/** Identity function that keeps the schemas' types for `run` while checking the definition. */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(tool: Tool<I, O>): Tool<I, O> {
  return tool;
}

/**
 * Thrown by a tool's `run` when a fresh quote is worse than the approved bound: the approval goes
 * back to the approvers with the new preview instead of executing. The message says which bound
 * failed, with both figures.
 */
export class OutsideApprovedBoundError extends CodedError {
  constructor(
    readonly preview: Preview,
    message: string,
  ) {
    super({ code: ErrorCode.OutsideBound, message });
    this.name = 'OutsideApprovedBoundError';
  }
}
