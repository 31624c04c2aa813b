import { SandboxClock } from './clock.js';
import { credentialsFromEnv, type SandboxCredentials } from './credentials.js';
import { MAX_BODY_BYTES, type SandboxAnswer, type SandboxCall, tooLarge } from './exchange.js';
import { SandboxHandler } from './handler.js';
import type { SandboxOptions } from './server.js';
import { SandboxState } from './state.js';

/** A request handed to the sandbox in the caller's process: what an HTTP client would have sent. */
export interface DispatchedRequest {
  method: string;
  /** The path with its query string. */
  path: string;
  headers: Readonly<Record<string, string>>;
  body?: string | undefined;
  /** The caller gives up: a sandbox told to hang (a `timeout` fault) stops waiting. */
  signal: AbortSignal;
}

export interface DispatchedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The sandbox hung up without answering (a `timeout` fault outlived by its caller), as a connection
 * closed by the other side; the message is the one an HTTP client gives for that.
 */
export class SandboxHangUp extends Error {
  constructor() {
    super('other side closed');
    this.name = 'SandboxHangUp';
  }
}

/** The sandbox without a listener: its state, and its requests answered in this process. */
export interface SandboxService {
  readonly clock: SandboxClock;
  readonly credentials: SandboxCredentials;
  /** One request, through the same handler as one over HTTP. */
  handle(call: SandboxCall): Promise<SandboxAnswer>;
  /**
   * A request as an HTTP client would send it, answered here: header names in lower case and their
   * values trimmed as an HTTP server reads them; a hang-up rejects with `SandboxHangUp`.
   */
  dispatch(request: DispatchedRequest): Promise<DispatchedAnswer>;
  /** Requests handled per operation name (e.g. `issueToken`). */
  stats(): Record<string, number>;
  reset(): void;
}

/** Headers as they arrive at an HTTP server: names in lower case, values without surrounding blanks. */
function received(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value.trim();
  return out;
}

export function openSandbox(options: SandboxOptions = {}): SandboxService {
  const state = new SandboxState(
    options.clock ?? new SandboxClock(),
    options.credentials ?? credentialsFromEnv(),
    options,
  );
  const { handle } = new SandboxHandler(state, options);
  return {
    clock: state.clock,
    credentials: state.credentials,
    handle,
    dispatch: async (request) => {
      const body = request.body ?? '';
      const answer = await handle({
        method: request.method,
        url: request.path,
        headers: received(request.headers),
        readBody: async () => {
          if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw tooLarge();
          return body;
        },
        signal: request.signal,
      });
      if ('hangUp' in answer) throw new SandboxHangUp();
      return answer;
    },
    stats: () => ({ ...state.counts }),
    reset: () => state.reset(),
  };
}
