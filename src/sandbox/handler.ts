import { envelopeForPath, errorBody, successBody } from './envelope.js';
import { invalid, SandboxError } from './errors.js';
import {
  hang,
  IDENTITY_HEADERS,
  jsonAnswer,
  jsonBody,
  type SandboxAnswer,
  type SandboxCall,
  sleep,
} from './exchange.js';
import type { Fault } from './faults.js';
import { checkHeaders } from './headers.js';
import { IdempotencyStore } from './idempotency.js';
import { optional } from './optional.js';
import type { CompiledRoute } from './routes.js';
import type { SandboxOptions } from './server.js';
import type { SandboxState } from './state.js';
import type { HttpMethod, SandboxRequest } from './types.js';

/** One request as it goes through: what it is, and what to say of it once answered. */
interface Exchange {
  call: SandboxCall;
  url: URL;
  path: string;
  method: HttpMethod;
  /** The caller's `x-request-id`, echoed back and the key of a repeated request. */
  echoId: string | undefined;
  envelope: ReturnType<typeof envelopeForPath>;
  operation?: string;
  status: number;
  /** The route's handler ran (not a replay, a fault or a control path). */
  carriedOut?: boolean;
}

/**
 * The sandbox's handling of a request, in its steps: read the body, answer a control path, find the
 * route (404, 405), apply an injected fault, check the headers, replay a repeated request, run the
 * handler, remember and save, answer; every failure in the envelope of its area. The same for a
 * request that came over HTTP and one handed over in the caller's process (exchange.ts).
 */
export class SandboxHandler {
  readonly #state: SandboxState;
  readonly #options: SandboxOptions;

  constructor(state: SandboxState, options: SandboxOptions) {
    this.#state = state;
    this.#options = options;
  }

  readonly handle = async (call: SandboxCall): Promise<SandboxAnswer> => {
    const started = performance.now();
    const url = new URL(call.url, 'http://sandbox.local');
    const requestId = call.headers['x-request-id'];
    const x: Exchange = {
      call,
      url,
      path: url.pathname,
      method: call.method.toUpperCase() as HttpMethod,
      echoId: typeof requestId === 'string' ? requestId : undefined,
      envelope: envelopeForPath(url.pathname),
      status: 500,
    };
    try {
      const body = await jsonBody(call);
      const answer = await this.#answer(x, body);
      if (x.carriedOut === true && x.operation !== undefined)
        await this.#options.beforeAnswer?.({ operation: x.operation, requestId: x.echoId });
      return answer;
    } catch (error) {
      const failure =
        error instanceof SandboxError
          ? error
          : new SandboxError(
              `internal sandbox error: ${error instanceof Error ? error.message : String(error)}`,
              500,
            );
      x.status = failure.httpStatus;
      return jsonAnswer(x.status, errorBody(x.envelope, x.status, failure.message), x.echoId);
    } finally {
      this.#options.onRequest?.({
        method: x.method,
        path: x.path,
        status: x.status,
        ...optional('operation', x.operation),
        ms: performance.now() - started,
      });
    }
  };

  /**
   * A request that may change the state runs as its only writer across processes (its load, change
   * and save), when the persistence can guard it; a GET changes nothing it saves.
   */
  #locked<T>(x: Exchange, work: () => Promise<T>): Promise<T> {
    const persistence = this.#options.persistence;
    if (x.method === 'GET' || persistence?.exclusive === undefined) return work();
    return persistence.exclusive(work);
  }

  /**
   * Answers in two turns when an injected fault delays the request: its wait (latency, or a hang)
   * holds no other writer up; the request is then carried out on the state as it is by then.
   */
  async #answer(x: Exchange, body: unknown): Promise<SandboxAnswer> {
    const routed = await this.#locked(x, async () => {
      const state = this.#state;
      state.refresh();
      const control = x.path.startsWith('/_sandbox/') ? state.control(x.method, x.path, body) : undefined;
      if (control !== undefined) {
        x.status = 200;
        if (x.method !== 'GET') state.persist();
        return jsonAnswer(x.status, control);
      }
      const route = this.#route(x.method, x.path);
      x.envelope = route.def.envelope;
      x.operation = route.def.operation;
      state.counts[x.operation] = (state.counts[x.operation] ?? 0) + 1;
      const fault = x.path.startsWith('/_sandbox/') ? undefined : state.faults.take(x.method, x.path);
      // A fault used up here is used up for every process sharing the state.
      if (fault !== undefined) state.persist();
      if (fault?.latencyMs || fault?.timeout) return { route, fault };
      return this.#faultAnswer(x, fault) ?? this.#carryOut(x, route, body);
    });
    if ('status' in routed || 'hangUp' in routed) return routed;
    if (routed.fault.latencyMs) await sleep(routed.fault.latencyMs);
    if (routed.fault.timeout) {
      x.status = 0;
      await hang(x.call.signal);
      return { hangUp: true };
    }
    return (
      this.#faultAnswer(x, routed.fault) ??
      this.#locked(x, async () => {
        this.#state.refresh();
        return this.#carryOut(x, routed.route, body);
      })
    );
  }

  /** The route's handler on the request: headers checked, a repeat replayed, the change saved. */
  async #carryOut(x: Exchange, route: CompiledRoute, body: unknown): Promise<SandboxAnswer> {
    const state = this.#state;
    const { def } = route;
    const request = this.#request(x, route, body);
    const fingerprint = this.#fingerprint(x, route, request);
    const first =
      fingerprint === undefined || x.echoId === undefined
        ? undefined
        : state.idempotency.lookup(def.operation, x.echoId, fingerprint);
    if (first !== undefined) {
      x.status = first.httpStatus;
      return jsonAnswer(x.status, first.body, x.echoId);
    }
    const reply = await def.handler(request);
    x.status = reply.httpStatus ?? def.successCode;
    const out = successBody(x.envelope, x.status, reply);
    if (fingerprint !== undefined && x.echoId !== undefined) {
      state.idempotency.remember(def.operation, x.echoId, fingerprint, { httpStatus: x.status, body: out });
    }
    // Saved before the answer leaves, so a caller that crashes right after still finds the state.
    if (x.method !== 'GET') state.persist();
    x.carriedOut = true;
    return jsonAnswer(x.status, out, x.echoId);
  }

  /**
   * The route of a request. Routes are sorted most-literal first; a literal path
   * (`/conversions/quote`) with the wrong method is a 405, not a lookup of the id `quote`.
   */
  #route(method: HttpMethod, path: string): CompiledRoute {
    // The prefix first: a route's pattern is compiled only when a path could be its own.
    const candidates = this.#state.routes.filter((r) => path.startsWith(r.prefix) && r.pattern.test(path));
    const mostLiteral = candidates[0]?.literalSegments;
    const route = candidates.find((r) => r.def.method === method && r.literalSegments === mostLiteral);
    if (route !== undefined) return route;
    if (candidates.length > 0) {
      const allowed = [...new Set(candidates.map((r) => r.def.method))].join(', ');
      throw new SandboxError(`method ${method} not allowed on ${path}; allowed: ${allowed}`, 405);
    }
    throw new SandboxError(`no endpoint ${method} ${path}`, 404);
  }

  /** What an injected fault answers instead of the service (an error, or a broken body), if anything. */
  #faultAnswer(x: Exchange, fault: Fault | undefined): SandboxAnswer | undefined {
    if (fault?.status !== undefined) {
      x.status = fault.status;
      return jsonAnswer(x.status, errorBody(x.envelope, x.status, `injected failure ${x.status}`), x.echoId);
    }
    if (fault?.malformed) {
      x.status = 200;
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"status":"SUCCESS","data":{"trunc',
      };
    }
    return undefined;
  }

  /** The request as a handler sees it, its headers checked against the route's set. */
  #request(x: Exchange, route: CompiledRoute, body: unknown): SandboxRequest {
    const params: Record<string, string> = {};
    const match = route.pattern.exec(x.path);
    route.paramNames.forEach((name, i) => {
      params[name] = decodeURIComponent(match?.[i + 1] ?? '');
    });
    if (params.version !== undefined && params.version !== 'v1') {
      throw invalid(`unsupported API version '${params.version}'; the only version is v1`);
    }
    const request: SandboxRequest = {
      method: x.method,
      path: x.path,
      params,
      query: x.url.searchParams,
      header: (name) => {
        const value = x.call.headers[name.toLowerCase()];
        return Array.isArray(value) ? value[0] : value;
      },
      body,
      auth: {},
    };
    const { def } = route;
    const { credentials, tokens } = this.#state;
    request.auth = checkHeaders(request, def.headers, def.requiredHeaders ?? [], credentials, tokens);
    return request;
  }

  /** What makes a request with an `x-request-id` the same request again (idempotent routes only). */
  #fingerprint(x: Exchange, route: CompiledRoute, request: SandboxRequest): string | undefined {
    if (!route.def.idempotent || x.echoId === undefined) return undefined;
    return IdempotencyStore.fingerprint({
      method: x.method,
      path: x.path,
      query: [...x.url.searchParams.entries()].sort(),
      headers: IDENTITY_HEADERS.map((h) => request.header(h) ?? null),
      body: request.body ?? null,
    });
  }
}
