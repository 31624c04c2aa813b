import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { messageOf } from '../errors.js';
import { issueWords } from '../input-words.js';
import { optional } from '../optional.js';
import { EnvelopeSchema, isSuccessStatus } from './envelope.js';
import { ServiceError } from './errors.js';
import type { CallOptions, ClientConfig, HeaderSetName, RequestSpec } from './request.js';
import { TokenDataSchema } from './schemas/auth.js';
import { TokenCache } from './token-cache.js';
import { dispatchTransport, httpTransport, type Transport } from './transport.js';
import { backoffMs, issuesOf, queryString, unsendableHeader } from './wire.js';

export type {
  CallOptions,
  ClientConfig,
  Dispatch,
  DispatchRequest,
  DispatchResponse,
  HeaderSetName,
  HttpMethod,
  QueryValue,
  RequestSpec,
  ResponseEvent,
} from './request.js';

const REQUIRES_BEARER: ReadonlySet<HeaderSetName> = new Set(['HB', 'HA', 'HA_WALLET']);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The shared HTTP layer of the service client: one keep-alive pool per base URL, the spec's header
 * sets, an `x-request-id` on every call, the bearer token cache, envelopes, errors and safe retries.
 * The transport (transport.ts: the pool, and undici with it, or a service in this process) is made
 * at the first request: a command that calls no service loads neither.
 */
export class HttpClient {
  #target: Promise<Transport> | undefined;
  private readonly tokens: TokenCache;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;

  constructor(readonly config: ClientConfig) {
    // A bad address is the configuration's mistake: said at once, not at the first call.
    if (typeof config.baseUrl === 'string') new URL(config.baseUrl);
    this.timeoutMs = config.timeoutMs ?? 30_000;
    this.maxRetries = config.maxRetries ?? 2;
    this.tokens = new TokenCache(() => this.issueToken(), config.now ?? Date.now);
  }

  /** The transport, made once; a base URL that could not be had is asked for again at the next request. */
  #targeted(): Promise<Transport> {
    if (this.#target !== undefined) return this.#target;
    const { baseUrl, connections } = this.config;
    const made = (async (): Promise<Transport> => {
      const at = typeof baseUrl === 'string' ? baseUrl : await baseUrl();
      if (typeof at !== 'string') return dispatchTransport(at);
      return httpTransport(new URL(at), connections ?? 16);
    })();
    this.#target = made;
    made.catch(() => {
      if (this.#target === made) this.#target = undefined;
    });
    return made;
  }

  /** Asks the token endpoint for a new bearer token (the cache calls this, single-flight). */
  async issueToken(options: CallOptions = {}): Promise<z.infer<typeof TokenDataSchema>> {
    return this.call(
      {
        operation: 'auth.issueToken',
        method: 'POST',
        path: '/svc/api/v1/auth/token',
        headerSet: 'TOKEN',
        envelope: 'banking',
        response: TokenDataSchema,
      },
      options,
    );
  }

  /**
   * The token a call needs. A write whose token could not be had was never sent: that is said
   * (`not_sent`), so nobody takes it for a payout that may have left.
   */
  private async bearerFor(spec: RequestSpec<z.ZodType>, requestId: string, safe: boolean): Promise<string> {
    try {
      return await this.tokens.get();
    } catch (error) {
      if (safe || !(error instanceof ServiceError)) throw error;
      throw new ServiceError({
        kind: 'not_sent',
        operation: spec.operation,
        message: `no bearer token (${error.serviceMessage}), so nothing was sent`,
        requestId,
        cause: error,
      });
    }
  }

  /** A valid bearer token, from the cache when it has one. */
  bearerToken(): Promise<string> {
    return this.tokens.get();
  }

  async call<S extends z.ZodType>(spec: RequestSpec<S>, options: CallOptions = {}): Promise<z.infer<S>> {
    const requestId = options.requestId ?? randomUUID();
    const safe = spec.method === 'GET';
    let refreshedToken = false;
    // Counted apart from attempts: the resend after a 401 is not one of the `maxRetries`.
    let retries = 0;
    const started = performance.now();
    for (let attempt = 1; ; attempt += 1) {
      let token: string | undefined;
      try {
        // Inside the try: a transient failure of the token endpoint is retried like the call itself.
        token = REQUIRES_BEARER.has(spec.headerSet) ? await this.bearerFor(spec, requestId, safe) : undefined;
        return await this.attempt(spec, requestId, token, options, attempt);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        if (error.httpStatus === 401 && token !== undefined && !refreshedToken) {
          // Refused before it was processed: forget the token and send the same request once more.
          refreshedToken = true;
          this.tokens.invalidate(token);
          continue;
        }
        if (safe && error.retryable && retries < this.maxRetries && !options.signal?.aborted) {
          retries += 1;
          await sleep(backoffMs(retries, error.retryAfter));
          continue;
        }
        throw retries === 0 ? error : error.tried(retries + 1, performance.now() - started);
      }
    }
  }

  private headersFor(spec: RequestSpec<z.ZodType>, requestId: string, token: string | undefined) {
    const c = this.config;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-api-key': c.apiKey,
      'x-request-id': requestId,
    };
    switch (spec.headerSet) {
      case 'TOKEN':
        headers['x-company-id'] = c.companyId;
        headers['x-user-id'] = c.userId;
        break;
      case 'USERS':
        headers['x-product-id'] = c.productId;
        break;
      case 'HB':
      case 'HA':
      case 'HA_WALLET':
        headers['x-product-id'] = c.productId;
        headers['x-user-id'] = c.userId;
        break;
      case 'HB2':
        headers['x-product-id'] = c.productId;
        break;
      case 'NOTIFY':
        break;
    }
    if (c.clientId !== undefined && (spec.headerSet === 'HB2' || spec.headerSet === 'HA_WALLET')) {
      headers['x-client-id'] = c.clientId;
    }
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    for (const [name, value] of Object.entries(spec.headers ?? {}))
      if (value !== undefined) headers[name] = value;
    return headers;
  }

  private async attempt<S extends z.ZodType>(
    spec: RequestSpec<S>,
    requestId: string,
    token: string | undefined,
    options: CallOptions,
    attempt: number,
  ): Promise<z.infer<S>> {
    const started = performance.now();
    const report = (extra: { httpStatus?: number; errorKind?: string }): void =>
      this.config.onResponse?.({
        operation: spec.operation,
        method: spec.method,
        path: spec.path,
        requestId,
        ms: performance.now() - started,
        attempt,
        ...extra,
      });
    const fail = (init: Omit<ConstructorParameters<typeof ServiceError>[0], 'operation' | 'requestId'>) => {
      report({
        ...optional('httpStatus', init.httpStatus),
        errorKind: init.kind,
      });
      return new ServiceError({
        ...init,
        message: this.redact(init.message, token),
        ...optional(
          'issues',
          init.issues?.map((i) => this.redact(i, token)),
        ),
        operation: spec.operation,
        requestId,
      });
    };

    const headers = this.headersFor(spec, requestId, token);
    const unsendable = unsendableHeader(headers);
    if (unsendable !== undefined) throw fail({ kind: 'not_sent', message: unsendable });
    let target: Transport;
    try {
      target = await this.#targeted();
    } catch (error) {
      throw fail({
        kind: 'not_sent',
        message: `the service is not there: ${messageOf(error)}`,
        cause: error,
      });
    }
    const fullPath = `${spec.path}${queryString(spec.query)}`;

    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort();
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });

    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    try {
      ({ status, retryAfter, text } = await target.send({
        path: fullPath,
        method: spec.method,
        headers,
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
        signal: controller.signal,
        timeoutMs,
      }));
    } catch (error) {
      const failure = target.failure(error);
      const isTimeout = timedOut || failure === 'timeout';
      const reason = messageOf(error);
      if (failure === 'not_sent') {
        throw fail({ kind: 'not_sent', message: `the request could not be sent: ${reason}`, cause: error });
      }
      throw fail({
        kind: isTimeout ? 'timeout' : 'network',
        message: isTimeout
          ? `no answer from the service within ${timeoutMs} ms`
          : options.signal?.aborted
            ? 'request aborted by the caller'
            : `could not reach the service: ${reason}`,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }

    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch (error) {
      if (status >= 400) {
        throw fail({
          kind: 'service',
          httpStatus: status,
          message: `HTTP ${status} with a non-JSON body`,
          retryAfter,
        });
      }
      throw fail({
        kind: 'invalid_response',
        httpStatus: status,
        message: 'the answer is not valid JSON',
        cause: error,
      });
    }

    const envelope = EnvelopeSchema.safeParse(body);
    const looksLikeEnvelope = envelope.success && !Array.isArray(body);
    const failed = status >= 400 || (looksLikeEnvelope && envelope.data.status?.toLowerCase() === 'error');
    if (failed) {
      const message = (looksLikeEnvelope ? envelope.data.message : undefined) || `HTTP ${status}`;
      throw fail({
        kind: 'service',
        httpStatus: status,
        code: looksLikeEnvelope ? envelope.data.code : undefined,
        message,
        retryAfter,
      });
    }

    const take = spec.take ?? (spec.envelope === 'bare' ? 'body' : 'data');
    if (take !== 'body') {
      if (!looksLikeEnvelope || !isSuccessStatus(envelope.data.status)) {
        throw fail({
          kind: 'invalid_response',
          httpStatus: status,
          message: `expected a ${spec.envelope} envelope with status success`,
        });
      }
    }
    const payload =
      take === 'body' ? body : take === 'envelope' ? body : envelope.success ? envelope.data.data : undefined;
    const parsed = spec.response.safeParse(payload);
    if (!parsed.success) {
      throw fail({
        kind: 'invalid_response',
        httpStatus: status,
        message: 'the answer does not match the spec',
        issues: issuesOf(parsed.error),
        cause: parsed.error,
      });
    }
    report({ httpStatus: status });
    return parsed.data;
  }

  /** A service that echoes the request in its message must not put our secrets into an error. */
  private redact(text: string, token: string | undefined): string {
    let out = text;
    for (const secret of [this.config.apiKey, token]) {
      if (secret !== undefined && secret !== '') out = out.split(secret).join('[redacted]');
    }
    return out;
  }

  /** Validates a request body with its schema before anything is sent. */
  static checkRequest<S extends z.ZodType>(operation: string, schema: S, input: unknown): z.infer<S> {
    const parsed = schema.safeParse(input, { error: issueWords });
    if (parsed.success) return parsed.data;
    const issues = issuesOf(parsed.error);
    throw new ServiceError({
      kind: 'invalid_request',
      operation,
      message: `invalid request: ${issues.join('; ')}`,
      issues,
      cause: parsed.error,
    });
  }

  async close(): Promise<void> {
    const target = this.#target;
    if (target === undefined) return;
    await (await target.catch(() => undefined))?.close();
  }
}
