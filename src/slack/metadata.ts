import { z } from 'zod';
import { optional } from '../core/optional.js';

/**
 * What bankops's buttons and modals carry back to it: a button's `value` (at most 2,000 characters)
 * and a modal's `private_metadata` (3,000). Each has a name and a zod schema and is read once, where
 * its listener starts. On the wire the keys stay one letter: it keeps values small, and buttons
 * already posted (an approval message waits for days) keep working.
 */
export interface Codec<T> {
  encode(value: T): string;
  /** Undefined when the text is not JSON or not of this shape (a button of another version, a forgery). */
  decode(text: string | undefined): T | undefined;
}

function codec<W extends z.ZodType, T>(
  wire: W,
  read: (value: z.infer<W>) => T,
  write: (value: T) => z.input<W>,
): Codec<T> {
  return {
    encode: (value) => JSON.stringify(write(value)),
    decode: (text) => {
      if (text === undefined || text === '') return undefined;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return undefined;
      }
      const parsed = wire.safeParse(json);
      return parsed.success ? read(parsed.data) : undefined;
    },
  };
}

/** Approve, Reject, Cancel: the approval and the attempt (quote) the clicker was shown. */
export interface DecisionRef {
  approvalId: string;
  attempt: number;
}
export const decisionRef = codec(
  z.object({ i: z.string().min(1), a: z.number().int() }),
  (w): DecisionRef => ({ approvalId: w.i, attempt: w.a }),
  (v) => ({ i: v.approvalId, a: v.attempt }),
);

/** The reject-reason modal: the approval, and where to answer the rejecter (none on the App Home). */
export interface RejectTarget {
  approvalId: string;
  responseUrl?: string;
}
export const rejectTarget = codec(
  z.object({ i: z.string().min(1), u: z.string().optional() }),
  (w): RejectTarget => (w.u === undefined ? { approvalId: w.i } : { approvalId: w.i, responseUrl: w.u }),
  (v) => (v.responseUrl === undefined ? { i: v.approvalId } : { i: v.approvalId, u: v.responseUrl }),
);

/**
 * The reconcile-reason modal of an unresolved approval: the approval, the request id the form shows
 * (the attempt the person looks up; only that one is settled), what the person found (`s` sent, `n`
 * not sent, `r` send again), and where to answer them (none on the App Home). A form opened before
 * the request id was kept names no approval: it is closed and clicked again.
 */
export interface ReconcileTarget {
  approvalId: string;
  requestId: string;
  outcome: 'succeeded' | 'failed' | 'retry';
  responseUrl?: string;
}
const RECONCILE_WIRE = { s: 'succeeded', n: 'failed', r: 'retry' } as const;
const RECONCILE_CODE = { succeeded: 's', failed: 'n', retry: 'r' } as const;
export const reconcileTarget = codec(
  z.object({
    i: z.string().min(1),
    q: z.string().min(1),
    o: z.enum(['s', 'n', 'r']),
    u: z.string().optional(),
  }),
  (w): ReconcileTarget => ({
    approvalId: w.i,
    requestId: w.q,
    outcome: RECONCILE_WIRE[w.o],
    ...optional('responseUrl', w.u),
  }),
  (v) => ({
    i: v.approvalId,
    q: v.requestId,
    o: RECONCILE_CODE[v.outcome],
    ...optional('u', v.responseUrl),
  }),
);

/** "Share in channel": the answer kept for it. */
export interface ShareRef {
  answerId: string;
}
export const shareRef = codec(
  z.object({ a: z.string().min(1) }),
  (w): ShareRef => ({ answerId: w.a }),
  (v) => ({ a: v.answerId }),
);

/** "More": a page of a kept answer. */
export interface PageRef {
  answerId: string;
  page: number;
}
export const pageRef = codec(
  z.object({ a: z.string().min(1), p: z.number().int().nonnegative() }),
  (w): PageRef => ({ answerId: w.a, page: w.p }),
  (v) => ({ a: v.answerId, p: v.page }),
);

/** "More from the service": the tool and the input of the service's next page. */
export interface NextPageRef {
  tool: string;
  input: Record<string, unknown>;
}
export const nextPageRef = codec(
  z.object({ t: z.string().min(1), i: z.record(z.string(), z.unknown()) }),
  (w): NextPageRef => ({ tool: w.t, input: w.i }),
  (v) => ({ t: v.tool, i: v.input }),
);

/** A tool's form: the tool, where to answer, and the values typed but not shown in the form. */
export interface FormTarget {
  tool: string;
  /** The command's response_url: the answer goes there. */
  responseUrl: string;
  /** The channel the command was typed in. */
  channel: string;
  /** Values not shown in the form (typed in the command for a field the form leaves out). */
  fixed: Record<string, unknown>;
}
export const formTarget = codec(
  z.object({ t: z.string(), u: z.string(), c: z.string(), f: z.record(z.string(), z.unknown()) }),
  (w): FormTarget => ({ tool: w.t, responseUrl: w.u, channel: w.c, fixed: w.f }),
  (v) => ({ t: v.tool, u: v.responseUrl, c: v.channel, f: v.fixed }),
);
