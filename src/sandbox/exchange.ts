import { invalid } from './errors.js';
import { optional } from './optional.js';

/**
 * One request as the sandbox takes it and its answer as it gives it, whichever way they travel: over
 * its HTTP listener (server.ts), or handed over in the caller's own process (service.ts). Both go
 * through the one handler, so the sandbox answers the same either way.
 */

export const MAX_BODY_BYTES = 1_000_000;
export const HANG_LIMIT_MS = 120_000;
export const IDENTITY_HEADERS = [
  'x-cardholder-id',
  'x-wallet-id',
  'x-card-id',
  'x-cardholderhash-id',
  'agent-code',
  'subagent-code',
  'x-agent-code',
  'x-subagent-code',
];

export interface SandboxCall {
  method: string;
  /** The path with its query string. */
  url: string;
  /** Header names in lower case, as Node's HTTP server gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body's text; rejects with a 400 when it is larger than `MAX_BODY_BYTES`. */
  readBody(): Promise<string>;
  /** Aborted when the caller gives up on the answer (its connection closed). */
  signal: AbortSignal;
}

/** An answer, or none: the sandbox hung up without one (an injected `timeout` fault). */
export type SandboxAnswer =
  | { status: number; headers: Record<string, string>; body: string }
  | { hangUp: true };

export function tooLarge(): Error {
  return invalid(`request body larger than ${MAX_BODY_BYTES} bytes`);
}

/** A JSON answer, with the caller's `x-request-id` echoed back. */
export function jsonAnswer(status: number, body: unknown, requestId?: string): SandboxAnswer {
  const text = JSON.stringify(body);
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      ...optional('x-request-id', requestId),
    },
    body: text,
  };
}

/** The body as JSON (undefined when empty); anything but JSON is the caller's error. */
export async function jsonBody(call: SandboxCall): Promise<unknown> {
  const raw = await call.readBody();
  if (raw.trim() === '') return undefined;
  const contentType = call.headers['content-type'];
  if (typeof contentType !== 'string' || !contentType.toLowerCase().includes('application/json')) {
    throw invalid('Content-Type must be application/json');
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid('request body is not valid JSON');
  }
}

/**
 * Waits as a caller hangs on a service that never answers: until the caller gives up, or
 * `HANG_LIMIT_MS` pass.
 */
export function hang(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, HANG_LIMIT_MS);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
