import { ErrorCode, outcomeUnknown } from '../core/errors.js';
import type { Failure } from '../core/results.js';

/**
 * The one table of failure kinds and their words, for every front end (CLI, MCP, Slack): a failure
 * is said by what it means for the person (nothing was sent; the service refused; the service is
 * not answering; it may or may not have happened), never by the layer that noticed it.
 */

/** What a failure means for the person who asked. */
export type FailureKind =
  /** Nothing was sent: the input, as typed, cannot be carried out. */
  | 'invalid'
  /** The service answered and said no (a 4xx other than 429). */
  | 'refused'
  /** A read got no usable answer (timeouts, network, 5xx, 429): nothing changed, asking later is safe. */
  | 'not_answering'
  /** A write got no usable answer: it may or may not have happened. */
  | 'unknown_outcome'
  /** A read got an answer bankops cannot read. */
  | 'unreadable'
  /** bankops cannot reach its own database: said without the server's address. */
  | 'unavailable'
  /** bankops itself failed. */
  | 'bankops';

/** The words of each kind: a short state for a headline, and what to do about it. */
export const FAILURE_WORDS: Readonly<Record<FailureKind, { state: string; advice: string }>> = {
  invalid: {
    state: 'not sent',
    advice: 'Nothing was sent: correct the fields named and try again.',
  },
  refused: {
    state: 'refused by the service',
    advice:
      'The service refused the request: correct what its message names, or raise it with the service if it is not about the input.',
  },
  not_answering: {
    state: 'the service is not answering',
    advice: 'Nothing was changed; trying again later is safe.',
  },
  unknown_outcome: {
    state: 'no answer from the service',
    advice:
      'This may or may not have happened: check with a read (or the request id at the service) before trying again.',
  },
  unreadable: {
    state: 'unreadable answer from the service',
    advice: 'Tell the bankops operators, with the request id; trying again later is safe.',
  },
  unavailable: {
    state: 'bankops cannot reach its database',
    advice: 'Try again once it is back; the operators see it on /healthz.',
  },
  bankops: {
    state: 'failed in bankops',
    advice: 'Tell the bankops operators; the request id helps.',
  },
};

/**
 * bankops's own database cannot be reached (`unavailable`): said the same way wherever it
 * surfaces, a failure of a tool or not (a form, a button), without the server's address.
 */
export const DATABASE_UNREACHABLE = FAILURE_WORDS.unavailable;

/** What a failure is, in words every front end can show: one line for the cause, then the facts. */
export interface FailureWords {
  kind: FailureKind;
  /** `get_balances: the service is not answering (HTTP 503, 3 attempts over 1.4 s)`. */
  headline: string;
  /** `HTTP 400`, `code 400`, `operation payouts.create`, `request id …`: what identifies the call. */
  facts: string[];
  /** Field-level problems the client found before sending. */
  issues: string[];
  /** What to do about it. */
  advice: string;
}

/** The kind of a failure, from its code and status, and whether the call could change anything. */
function failureKind(error: Pick<Failure, 'kind' | 'httpStatus'>, readOnly: boolean): FailureKind {
  if (error.kind === ErrorCode.Internal) return 'bankops';
  if (error.kind === ErrorCode.Unavailable) return 'unavailable';
  // Which failures may have acted at the service is core's rule (`outcomeUnknown`); the rest were
  // refused by the service (an HTTP status) or never valid.
  if (!outcomeUnknown(error)) return error.kind === ErrorCode.Service ? 'refused' : 'invalid';
  if (!readOnly) return 'unknown_outcome';
  return error.kind === ErrorCode.InvalidResponse ? 'unreadable' : 'not_answering';
}

/** `1.4 s`, `850 ms`. */
const duration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** How long it was tried: `3 attempts over 1.4 s`, or nothing when it was sent once. */
function triedWords(error: Pick<Failure, 'attempts' | 'elapsedMs'>): string | undefined {
  if (error.attempts === undefined || error.attempts < 2) return undefined;
  const over = error.elapsedMs === undefined ? '' : ` over ${duration(error.elapsedMs)}`;
  return `${error.attempts} attempts${over}`;
}

/** What to do after a failure of this kind; a write that may have happened says so. */
export function failureAdvice(error: Pick<Failure, 'kind' | 'httpStatus'>, readOnly: boolean): string {
  return NOTHING_SENT[error.kind] ?? FAILURE_WORDS[failureKind(error, readOnly)].advice;
}

/** Failures where nothing was sent, each with what to do about it in particular. */
const NOTHING_SENT: Partial<Record<Failure['kind'], string>> = {
  not_sent: 'Nothing was sent: a value could not be carried by the request; correct it and try again.',
  insufficient_balance: 'Nothing was sent: fund the account or ask for less, then try again.',
  usage: 'Nothing was done: correct what the message names and try again.',
  outside_bound: 'Nothing was sent: the fresh quote went back to the approvers, who decide on it again.',
  deferred: 'Nothing was done yet: it waits for the person to confirm it.',
  not_configured:
    'Nothing was sent: this bankops is not set up for it; the operators set what the message names.',
};

export function describeFailure(tool: { name: string; readOnly: boolean }, error: Failure): FailureWords {
  const kind = failureKind(error, tool.readOnly);
  if (kind === 'unavailable') {
    // The message names the server; the person needs only that it is away.
    const headline = `${tool.name}: ${FAILURE_WORDS.unavailable.state}`;
    return { kind, headline, facts: [], issues: [], advice: FAILURE_WORDS.unavailable.advice };
  }
  // A kind whose headline names the HTTP status does not repeat it among the facts.
  const statusInHeadline = kind === 'not_answering' || kind === 'unknown_outcome';
  const facts = [
    error.httpStatus === undefined || statusInHeadline ? undefined : `HTTP ${error.httpStatus}`,
    error.code === undefined || error.code === error.httpStatus ? undefined : `code ${error.code}`,
    error.operation === undefined ? undefined : `operation ${error.operation}`,
    error.requestId === undefined ? undefined : `request id ${error.requestId}`,
  ].filter((fact) => fact !== undefined);
  const tried = triedWords(error);
  const message = error.message.split('\n')[0] ?? '';
  let headline: string;
  switch (kind) {
    case 'not_answering':
    case 'unknown_outcome': {
      const how = [error.httpStatus === undefined ? message : `HTTP ${error.httpStatus}`, tried];
      headline = `${tool.name}: ${FAILURE_WORDS[kind].state} (${how.filter((p) => p).join(', ')})`;
      break;
    }
    default:
      headline = `${tool.name} ${FAILURE_WORDS[kind].state}: ${message}`;
  }
  return { kind, headline, facts, issues: error.issues ?? [], advice: failureAdvice(error, tool.readOnly) };
}
