import { z } from 'zod';
import type { ApprovalView, Settlement } from '../../core/approvals/view-schema.js';
import {
  defineTool,
  type Money,
  type ObjectSchema,
  type Preview,
  type Tool,
  type ToolContext,
} from '../../core/tool.js';
import { beforeSending } from '../shared/before-sending.js';
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
  preview(input: CI, quote: Q, ctx: ToolContext, balance?: BalanceFacts): Preview;
  /** Sends the movement on the quote (the execution's request id goes with it). */
  create(input: CI, quote: Q, ctx: ToolContext): Promise<C & { id: string }>;
  /** Its current status at the service. */
  get(id: string, ctx: ToolContext): Promise<{ status: string }>;
}

const companyOf = (input: { companyCode?: string | undefined }, ctx: ToolContext) =>
  input.companyCode ?? ctx.defaults.companyCode;

/**
 * The parts of create_* that every quoted movement shares: the preview with the balance, the check
 * before each vote, the settlement followed after, and the run on a fresh quote within the bound.
 */
export function movementHooks<
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
      checkApprovedBound(ctx, { debit: movement.debit(quote), receive: movement.receive(quote) }, () =>
        movement.preview(input, quote, ctx),
      );
      return output(await movement.create(input, quote, ctx), quote);
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

/** get_*: the movement's status at the service. */
export function statusTool<I extends ObjectSchema, O extends ObjectSchema>(
  meta: ToolMeta<I, O>,
  get: (input: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>,
): Tool<I, O> {
  return defineTool({ ...meta, toolset: 'banking', hints: STATUS_HINTS, run: get });
}

/** create_*'s output: the movement's id, its references and status, and the quote it was executed on. */
export function createdOutput<K extends string, Q extends ObjectSchema>(
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
