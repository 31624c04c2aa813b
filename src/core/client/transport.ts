import type { Dispatch, HttpMethod } from './request.js';

/**
 * How a request reaches the service: over HTTP through an undici pool (made at the first request,
 * so a command that calls no service loads neither), or handed to a service that answers in this
 * process (the embedded sandbox of a one-shot command). The client's steps around it (headers,
 * request ids, envelopes, errors, retries, the token cache) are the same either way.
 */

export interface WireRequest {
  method: HttpMethod;
  /** Path and query string, below the base URL's path. */
  path: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  signal: AbortSignal;
  timeoutMs: number;
}

export interface WireResponse {
  status: number;
  retryAfter: string | undefined;
  text: string;
}

/** What a failed send means (besides the caller's own timeout and abort, which the client knows). */
export type SendFailure = 'timeout' | 'not_sent' | 'network';

export interface Transport {
  send(request: WireRequest): Promise<WireResponse>;
  failure(error: unknown): SendFailure;
  close(): Promise<void>;
}

/** The pool of the base URL's origin; its path is put before every request's. */
export async function httpTransport(url: URL, connections: number): Promise<Transport> {
  const { Pool, errors } = await import('undici');
  const pool = new Pool(url.origin, { connections, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
  const prefix = url.pathname.replace(/\/+$/, '');
  return {
    async send(request) {
      const response = await pool.request({
        path: `${prefix}${request.path}`,
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: request.signal,
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
      });
      const header = response.headers['retry-after'];
      return {
        status: response.statusCode,
        retryAfter: Array.isArray(header) ? header[0] : header,
        text: await response.body.text(),
      };
    },
    failure(error) {
      // Refused by the HTTP library before a connection was used: nothing was sent.
      if (error instanceof errors.InvalidArgumentError) return 'not_sent';
      const timeout =
        error instanceof errors.HeadersTimeoutError ||
        error instanceof errors.BodyTimeoutError ||
        error instanceof errors.ConnectTimeoutError;
      return timeout ? 'timeout' : 'network';
    },
    close: () => pool.close(),
  };
}

/** Aborted: settles as soon as the signal is, whether or not the service noticed. */
function aborted(signal: AbortSignal): { promise: Promise<never>; done(): void } {
  let done = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    done = () => signal.removeEventListener('abort', onAbort);
  });
  return { promise, done };
}

/**
 * Requests handed to a service in this process. Its failure to answer (it hung up) is a network
 * failure, as over a socket; the caller's timeout and abort end the wait even if the service keeps
 * working, as they do over HTTP.
 */
export function dispatchTransport(dispatch: Dispatch): Transport {
  return {
    async send(request) {
      const stop = aborted(request.signal);
      try {
        const answer = await Promise.race([
          dispatch({
            method: request.method,
            path: request.path,
            headers: request.headers,
            ...(request.body === undefined ? {} : { body: request.body }),
            signal: request.signal,
          }),
          stop.promise,
        ]);
        return { status: answer.status, retryAfter: answer.headers['retry-after'], text: answer.body };
      } finally {
        stop.done();
      }
    },
    failure: () => 'network',
    close: async () => {},
  };
}
