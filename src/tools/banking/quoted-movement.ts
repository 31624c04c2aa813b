import { z } from 'zod';
import type { ApprovalView, Settlement } from '../../core/approvals/view-schema.js';
import type { CallOptions } from '../../core/client/index.js';
import {
  defineTool,
  type Money,
  type ObjectSchema,
  type Preview,
  type Tool,
  type ToolContext,
} from '../../core/tool.js';
import { beforeSending } from '../shared/before-sending.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { idString } from '../shared/ids.js';
import { type BalanceFacts, companyBalance, settlementOutcome } from './balance.js';
import { checkApprovedBound } from './bound-check.js';

/**
 * A quoted money movement (a payout, a conversion), defined once: how it is quoted, what the quote
 * debits and delivers (the approvers' bound), how it is created on a quote, how its status is read.
 * Its three tools (quote_*, create_*, get_*) are made from it; create_* shows the quote to the
 * approvers, refuses a debit the balance cannot cover, and re-quotes at execution within the bound
 * (DESIGN decision 5).
 */
export interface QuotedMovement<QI, Q, CI extends QI, C extends { status: string }> {
  kind: 'payout' | 'conversion';
  /** A fresh quote for the input (a read: every call is a new quote). */
  quote(input: QI, ctx: ToolContext): Promise<Q>;
  /** The parsed quote, as checkpointed (a re-execution after a crash reads it back). */
  quoteSchema: z.ZodType<Q>;
  /** What the quote takes from the company: the bound approvers accept. */
  debit(quote: Q): Money;
  /** What the quote delivers: an approved fixed debit must not deliver less. */
  receive(quote: Q): Money;
  /** What the approvers read. */
  preview(input: CI, quote: Q, ctx: ToolContext, balance?: BalanceFacts): Promise<Preview>;
  /** Sends the movement on the quote (the execution's request id goes with it). */
  create(input: CI, quote: Q, ctx: ToolContext): Promise<C & { id: string }>;
  /** Its current status at the service. */
  get(id: string, ctx: ToolContext): Promise<C>;
  /** After the service accepted it: what the core keeps of it (a payee's payouts so far). */
  sent?(input: CI, quote: Q, ctx: ToolContext): Promise<void>;
}

/** The service's calls for a movement: quoted, created on a quote, read back by its id. */
interface MovementApi<K extends string, QR, Q, R, C> {
  quote(request: QR, options?: CallOptions): Promise<Q>;
  create(request: R, options?: CallOptions): Promise<C>;
  get(input: { [P in K]: string }, options?: CallOptions): Promise<C>;
}

/**
 * quote, create and get of a movement the service quotes, makes on a quote and names by `idKey`.
 * Each request takes the company (the input's, else the configured one) and the input's own fields;
 * the quote goes without a request id (a repeat must give a fresh quote, not replay an expired
 * one), the creation with the execution's.
 */
export function serviceCalls<
  K extends string,
  QI extends { companyCode?: string | undefined },
  CI extends QI,
  QR,
  Q extends { quoteId: string },
  R,
  C extends { [P in K]: string },
>(spec: {
  idKey: K;
  api: (ctx: ToolContext) => MovementApi<K, QR, Q, R, C>;
  quoteRequest: (input: QI, companyCode: string) => QR;
  request: (input: CI, quote: Q, companyCode: string) => R;
  progress: (quote: Q) => string;
}): {
  quote(input: QI, ctx: ToolContext): Promise<Q>;
  create(input: CI, quote: Q, ctx: ToolContext): Promise<C & { id: string }>;
  get(id: string, ctx: ToolContext): Promise<C>;
} {
  return {
    quote: (input, ctx) =>
      spec.api(ctx).quote(spec.quoteRequest(input, companyOf(input, ctx)), readOptions(ctx)),
    create: async (input, quote, ctx) => {
      ctx.progress(spec.progress(quote));
      const request = spec.request(input, quote, companyOf(input, ctx));
      const created = await spec.api(ctx).create(request, writeOptions(ctx));
      return { ...created, id: created[spec.idKey] };
    },
    get: (id, ctx) => spec.api(ctx).get({ [spec.idKey]: id } as { [P in K]: string }, readOptions(ctx)),
  };
}

const companyOf = (input: { companyCode?: string | undefined }, ctx: ToolContext) =>
  input.companyCode ?? ctx.defaults.companyCode;

/**
 * The parts of create_* that every quoted movement shares: the preview with the balance, the check
 * before each vote, the settlement followed after, and the run on a fresh quote within the bound.
 */
function movementHooks<
  QI,
  Q,
  CI extends QI & { companyCode?: string | undefined },
  C extends { status: string },
  Out extends { status: string },
>(
  movement: QuotedMovement<QI, Q, CI, C>,
  output: (created: C & { id: string }, quote: Q) => Out,
  idOf: (out: Out) => string,
): {
  preview(input: CI, ctx: ToolContext): Promise<Preview>;
  check(input: CI, ctx: ToolContext, approval: Pick<ApprovalView, 'bound'>): Promise<void>;
  settlement(out: Out): Pick<Settlement, 'kind' | 'id' | 'status' | 'outcome'>;
  settle(
    sent: Pick<Settlement, 'kind' | 'id'>,
    ctx: ToolContext,
  ): Promise<Pick<Settlement, 'status' | 'outcome'>>;
  run(input: CI, ctx: ToolContext): Promise<Out>;
} {
  return {
    preview: async (input, ctx) => {
      const quote = await movement.quote(input, ctx);
      // Refused here, before anyone is asked, when the balance cannot cover the debit.
      const balance = await companyBalance(ctx, companyOf(input, ctx), movement.debit(quote));
      return movement.preview(input, quote, ctx, balance);
    },
    check: async (input, ctx, approval) => {
      const debit = approval.bound?.quoted;
      if (debit !== undefined) await companyBalance(ctx, companyOf(input, ctx), debit);
    },
    settlement: (out) => {
      return {
        kind: movement.kind,
        id: idOf(out),
        status: out.status,
        outcome: settlementOutcome(out.status),
      };
    },
    settle: async (sent, ctx) => {
      const { status } = await movement.get(sent.id, ctx);
      return { status, outcome: settlementOutcome(status) };
    },
    run: async (input, ctx) => {
      // Checkpointed: a re-execution after a crash re-sends this quote with the same request id.
      const quote = movement.quoteSchema.parse(
        await beforeSending('the fresh quote', () => ctx.once('quote', () => movement.quote(input, ctx))),
      );
      await checkApprovedBound(ctx, { debit: movement.debit(quote), receive: movement.receive(quote) }, () =>
        movement.preview(input, quote, ctx),
      );
      const created = await movement.create(input, quote, ctx);
      await movement.sent?.(input, quote, ctx);
      return output(created, quote);
    },
  };
}

/** Every call is a new quote, stored by the service: it moves and commits to nothing. */
const QUOTE_HINTS = { readOnly: true, destructive: false, idempotent: false, openWorld: true } as const;
const STATUS_HINTS = { readOnly: true, destructive: false, idempotent: true, openWorld: true } as const;

interface ToolMeta<I extends ObjectSchema, O extends ObjectSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
}

/** quote_*: a fresh quote of the movement; no request id, so a repeat never replays an expired one. */
export function quoteTool<I extends ObjectSchema, O extends ObjectSchema>(
  meta: ToolMeta<I, O>,
  quote: (input: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>,
): Tool<I, O> {
  return defineTool({ ...meta, toolset: 'banking', hints: QUOTE_HINTS, run: quote });
}

/** get_*: the movement's status at the service; its input is the one id create_* gave. */
export function statusTool<K extends string, O extends ObjectSchema>(
  meta: Omit<ToolMeta<ObjectSchema, O>, 'input'>,
  id: { key: K; text: string },
  get: (id: string, ctx: ToolContext) => Promise<z.infer<O>>,
) {
  const input = z.object({ [id.key]: idString().describe(id.text) } as { [P in K]: z.ZodString });
  return defineTool({
    ...meta,
    input,
    toolset: 'banking',
    hints: STATUS_HINTS,
    run: (values: Record<string, unknown>, ctx) => get(String(values[id.key]), ctx),
  });
}

/** Money sent at a rate, or to a payee, cannot be called back: destructive, so MCP clients confirm first. */
const CREATE_HINTS = { readOnly: false, destructive: true, idempotent: false, openWorld: true } as const;

/**
 * create_*: the movement, run only once approvers accept its quote; its output is the movement's
 * id, references and status and the quote it was executed on. `money` is what the policy's
 * thresholds weigh: the amount in the currency `side` names (thresholds are per currency).
 */
export function createTool<
  K extends string,
  I extends ObjectSchema,
  QS extends ObjectSchema,
  QI,
  C extends { [P in K]: string } & { status: string; externalReference?: string | null | undefined },
>(
  meta: Omit<ToolMeta<I, ObjectSchema>, 'output'> & {
    money(input: z.infer<I>): Money;
    payee?(input: z.infer<I>): string | undefined;
    sourceAccount?(input: z.infer<I>): string | undefined;
  },
  movement: QuotedMovement<QI, z.infer<QS>, z.infer<I> & QI & { companyCode?: string | undefined }, C>,
  created: { key: K; text: string; status: string; quote: QS },
) {
  const output: ObjectSchema = createdOutput(created, created.status, created.quote, movement.kind);
  type Out = { [P in K]: string } & Pick<C, 'status' | 'externalReference'> & { quote: z.infer<QS> };
  return defineTool({
    ...meta,
    output,
    toolset: 'banking',
    hints: CREATE_HINTS,
    ...movementHooks(
      movement,
      // A computed key is typed as any string's: the object has exactly the key K.
      (sent, quote) =>
        ({
          [created.key]: sent[created.key],
          externalReference: sent.externalReference,
          status: sent.status,
          quote,
        }) as Out,
      (out) => out[created.key],
    ),
  });
}

/** create_*'s output: the movement's id, its references and status, and the quote it was executed on. */
function createdOutput<K extends string, Q extends ObjectSchema>(
  id: { key: K; text: string },
  status: string,
  quote: Q,
  what: string,
) {
  return z.object({ [id.key]: z.string().describe(id.text) } as { [P in K]: z.ZodString }).extend({
    externalReference: z
      .string()
      .nullish()
      .describe('clientReference, or a reference the service generated.'),
    status: z.string().describe(status),
    quote: quote.describe(`The quote the ${what} was executed on (taken at execution).`),
  });
}
