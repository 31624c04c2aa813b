import type { z } from 'zod';
import type { EnvelopeKind } from './envelope.js';

/**
 * What a call of the service client is made of (its header set, method, path, body, envelope and
 * the schema of its answer) and how the client is configured; `http.ts` sends it.
 */

/** Header sets of the spec; `HA_WALLET` is family A's wallet endpoints, where `Authorization` is optional. */
export type HeaderSetName = 'TOKEN' | 'USERS' | 'HB' | 'HA' | 'HA_WALLET' | 'HB2' | 'NOTIFY';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A request for a service that answers in this process, as it would go over HTTP. */
export interface DispatchRequest {
  method: HttpMethod;
  /** The spec's path with its query string. */
  path: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  /** Aborted when the client gives up (its timeout, or the caller's signal). */
  signal: AbortSignal;
}

export interface DispatchResponse {
  status: number;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/**
 * A service answering in this process (the embedded sandbox of a one-shot command): it takes the
 * request the client would have sent over HTTP, headers and body, and gives the status, headers and
 * body it would have answered. A rejection is a connection that failed.
 */
export type Dispatch = (request: DispatchRequest) => Promise<DispatchResponse>;

export interface ClientConfig {
  /**
   * The service address; the spec's paths are appended to it. A function gives it at the first
   * request instead (the embedded sandbox starts then, not for a command that calls no service),
   * or gives a `Dispatch`: the service answers in this process, without a socket.
   */
  baseUrl: string | (() => Promise<string | Dispatch>);
  apiKey: string;
  productId: string;
  userId: string;
  /** Company id sent to the token endpoint; also the default `companyCode`. */
  companyId: string;
  /** Optional `x-client-id` for the endpoints that accept it. */
  clientId?: string | undefined;
  /** Per-attempt timeout (connect + answer), default 30 s. */
  timeoutMs?: number;
  /** Retries of safe (GET) requests on timeouts, network errors, 429 and 5xx; default 2. */
  maxRetries?: number;
  /** Keep-alive connections per base URL, default 16. */
  connections?: number;
  /** Clock for the token cache (tests move it). */
  now?: () => number;
  /** Called after every attempt, for logs and metrics; never given credentials. */
  onResponse?: (event: ResponseEvent) => void;
}

export interface ResponseEvent {
  operation: string;
  method: HttpMethod;
  path: string;
  requestId: string;
  httpStatus?: number;
  errorKind?: string;
  ms: number;
  attempt: number;
}

/** Per-call options every client method accepts. */
export interface CallOptions {
  /** `x-request-id`: pass the same value to make a retry the same request. */
  requestId?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestSpec<S extends z.ZodType> {
  operation: string;
  method: HttpMethod;
  /** Path built with the `path` tag (segments encoded). */
  path: string;
  headerSet: HeaderSetName;
  /** Extra headers (identity headers, agent codes); `undefined` values are not sent. */
  headers?: Readonly<Record<string, string | undefined>>;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  envelope: EnvelopeKind;
  /** What the schema describes: the envelope's `data` (default), the whole envelope, or a bare body. */
  take?: 'data' | 'envelope' | 'body';
  response: S;
}
