import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deserialize, serialize } from 'node:v8';
import { z } from 'zod';
import { SANDBOX_AREAS } from './areas/index.js';
import { SandboxClock } from './clock.js';
import { credentialsFromEnv, type SandboxCredentials } from './credentials.js';
import { envelopeForPath, errorBody, successBody } from './envelope.js';
import { invalid, SandboxError } from './errors.js';
import { EventBus } from './events.js';
import { type Fault, FaultSchema, FaultTable } from './faults.js';
import { checkHeaders } from './headers.js';
import { IdempotencyStore } from './idempotency.js';
import { type CompiledRoute, compileRoute } from './routes.js';
import { TokenIssuer } from './tokens.js';
import type { HttpMethod, SandboxContext, SandboxRequest } from './types.js';
import { parseInput } from './validate.js';

/**
 * Where a persistent sandbox keeps its state between processes (the CLI's embedded sandbox: a payout
 * requested by one command is approved by the next). `load` returns the newest saved state when it
 * is newer than `revision`; `save` stores one after every request that may have changed something.
 */
export interface SandboxPersistence {
  load(sinceRevision: number): { revision: number; state: Buffer } | undefined;
  save(state: Buffer): number;
}

export interface SandboxOptions {
  persistence?: SandboxPersistence;
  credentials?: SandboxCredentials;
  clock?: SandboxClock;
  /** Said about itself on `GET /_sandbox/info` (which state file it serves, say), next to `sandbox: "bankops"`. */
  info?: Readonly<Record<string, string>>;
  /** Called once per handled request (for `bankops sandbox --verbose`). */
  onRequest?: (line: {
    method: string;
    path: string;
    status: number;
    operation?: string;
    ms: number;
  }) => void;
}

export interface RunningSandbox {
  /** Base URL, `http://127.0.0.1:<port>`, to which the spec's paths are appended. */
  readonly url: string;
  readonly port: number;
  readonly clock: SandboxClock;
  readonly credentials: SandboxCredentials;
  /** Requests handled per operation name (e.g. `issueToken`). */
  stats(): Record<string, number>;
  reset(): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;
const HANG_LIMIT_MS = 120_000;
const IDENTITY_HEADERS = [
  'x-cardholder-id',
  'x-wallet-id',
  'x-card-id',
  'x-cardholderhash-id',
  'agent-code',
  'subagent-code',
  'x-agent-code',
  'x-subagent-code',
];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(invalid(`request body larger than ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, requestId?: string): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(requestId === undefined ? {} : { 'x-request-id': requestId }),
  });
  res.end(text);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const ClockBody = z
  .object({
    advanceSeconds: z
      .number()
      .min(0)
      .max(10 * 365 * 86400),
  })
  .strict();

/**
 * Starts the sandbox on 127.0.0.1. Port 0 picks a free port; the URL is on the returned handle.
 */
export async function startSandbox(port = 0, options: SandboxOptions = {}): Promise<RunningSandbox> {
  const credentials = options.credentials ?? credentialsFromEnv();
  const clock = options.clock ?? new SandboxClock();
  const events = new EventBus();
  const tokens = new TokenIssuer(clock);
  const idempotency = new IdempotencyStore();
  const faults = new FaultTable();
  const counts: Record<string, number> = {};
  const ctx: SandboxContext = {
    credentials,
    clock,
    events,
    tokens,
    newId: (prefix) => `${prefix}_${randomBytes(8).toString('hex')}`,
  };

  const areas = SANDBOX_AREAS.map((install) => install(ctx));
  const routes: CompiledRoute[] = areas.flatMap((area) => area.routes.map(compileRoute));
  // Literal segments win over parameters: `/accounts/balances` before `/accounts/:accountId`.
  routes.sort((a, b) => b.literalSegments - a.literalSegments);

  interface Snapshot {
    version: 1;
    clockOffsetSeconds: number;
    idempotency: ReturnType<IdempotencyStore['snapshot']>;
    areas: Record<string, unknown>;
    /** Injected faults, so `bankops sandbox faults` reaches the next command's sandbox (absent in older saves). */
    faults?: ReturnType<FaultTable['snapshot']>;
  }
  let revision = 0;
  const persist = (): void => {
    if (options.persistence === undefined) return;
    const snapshot: Snapshot = {
      version: 1,
      clockOffsetSeconds: clock.offsetSeconds,
      idempotency: idempotency.snapshot(),
      areas: Object.fromEntries(areas.map((area) => [area.name, area.snapshot()])),
      faults: faults.snapshot(),
    };
    revision = options.persistence.save(serialize(snapshot));
  };
  /** Picks up what another process saved since this one last looked. */
  const refresh = (): void => {
    const saved = options.persistence?.load(revision);
    if (saved === undefined) return;
    const snapshot = deserialize(saved.state) as Snapshot;
    if (snapshot.version !== 1) return;
    clock.setOffsetSeconds(snapshot.clockOffsetSeconds);
    idempotency.restore(snapshot.idempotency);
    faults.restore(snapshot.faults ?? []);
    for (const area of areas) if (area.name in snapshot.areas) area.restore(snapshot.areas[area.name]);
    revision = saved.revision;
  };

  const reset = (): void => {
    idempotency.clear();
    faults.clear();
    for (const area of areas) area.reseed();
  };
  const control = (method: string, path: string, body: unknown): unknown => {
    if (method === 'POST' && path === '/_sandbox/reset') {
      reset();
      return { status: 'success', message: 'sandbox state restored to the seed' };
    }
    if (method === 'GET' && path === '/_sandbox/clock') {
      return { now: clock.now().toISOString(), offsetSeconds: clock.offsetSeconds };
    }
    if (method === 'POST' && path === '/_sandbox/clock') {
      const { advanceSeconds } = parseInput(ClockBody, body);
      clock.advance(advanceSeconds);
      return { now: clock.now().toISOString(), offsetSeconds: clock.offsetSeconds };
    }
    if (method === 'GET' && path === '/_sandbox/faults') return { faults: faults.list() };
    if (method === 'POST' && path === '/_sandbox/faults') {
      const fault: Fault = parseInput(FaultSchema, body);
      return { id: faults.add(fault), fault };
    }
    if (method === 'DELETE' && path === '/_sandbox/faults') {
      faults.clear();
      return { faults: [] };
    }
    if (method === 'GET' && path === '/_sandbox/stats') return { requests: { ...counts } };
    if (method === 'GET' && path === '/_sandbox/info') {
      return {
        sandbox: 'bankops',
        persistent: options.persistence !== undefined,
        pid: process.pid,
        ...options.info,
      };
    }
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    const path = url.pathname;
    const method = (req.method ?? 'GET').toUpperCase() as HttpMethod;
    const requestId = req.headers['x-request-id'];
    const echoId = typeof requestId === 'string' ? requestId : undefined;
    let envelope = envelopeForPath(path);
    let operation: string | undefined;
    let status = 500;
    try {
      const raw = await readBody(req);
      const contentType = req.headers['content-type'];
      let body: unknown;
      if (raw.trim() !== '') {
        if (contentType === undefined || !contentType.toLowerCase().includes('application/json')) {
          throw invalid('Content-Type must be application/json');
        }
        try {
          body = JSON.parse(raw);
        } catch {
          throw invalid('request body is not valid JSON');
        }
      }

      refresh();
      const controlAnswer = path.startsWith('/_sandbox/') ? control(method, path, body) : undefined;
      if (controlAnswer !== undefined) {
        status = 200;
        if (method !== 'GET') persist();
        send(res, status, controlAnswer);
        return;
      }

      // `routes` is sorted most-literal first; a literal path (`/conversions/quote`) with the wrong
      // method is a 405, not a lookup of the id `quote` by a parameter route.
      const candidates = routes.filter((r) => r.pattern.test(path));
      const mostLiteral = candidates[0]?.literalSegments;
      const route = candidates.find((r) => r.def.method === method && r.literalSegments === mostLiteral);
      if (route === undefined) {
        if (candidates.length > 0) {
          const allowed = [...new Set(candidates.map((r) => r.def.method))].join(', ');
          throw new SandboxError(`method ${method} not allowed on ${path}; allowed: ${allowed}`, 405);
        }
        throw new SandboxError(`no endpoint ${method} ${path}`, 404);
      }
      const def = route.def;
      envelope = def.envelope;
      operation = def.operation;
      counts[def.operation] = (counts[def.operation] ?? 0) + 1;

      if (!path.startsWith('/_sandbox/')) {
        const fault = faults.take(method, path);
        // A fault used up here is used up for every process sharing the state.
        if (fault !== undefined) persist();
        if (fault?.latencyMs) await sleep(fault.latencyMs);
        if (fault?.timeout) {
          status = 0;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, HANG_LIMIT_MS);
            res.on('close', () => {
              clearTimeout(timer);
              resolve();
            });
          });
          res.destroy();
          return;
        }
        if (fault?.status !== undefined) {
          status = fault.status;
          send(res, status, errorBody(envelope, status, `injected failure ${status}`), echoId);
          return;
        }
        if (fault?.malformed) {
          status = 200;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"status":"SUCCESS","data":{"trunc');
          return;
        }
      }

      const params: Record<string, string> = {};
      const match = route.pattern.exec(path);
      route.paramNames.forEach((name, i) => {
        params[name] = decodeURIComponent(match?.[i + 1] ?? '');
      });
      if (params.version !== undefined && params.version !== 'v1') {
        throw invalid(`unsupported API version '${params.version}'; the only version is v1`);
      }

      const request: SandboxRequest = {
        method,
        path,
        params,
        query: url.searchParams,
        header: (name) => {
          const value = req.headers[name.toLowerCase()];
          return Array.isArray(value) ? value[0] : value;
        },
        body,
        auth: {},
      };
      request.auth = checkHeaders(request, def.headers, def.requiredHeaders ?? [], credentials, tokens);

      let fingerprint: string | undefined;
      if (def.idempotent && echoId !== undefined) {
        fingerprint = IdempotencyStore.fingerprint({
          method,
          path,
          query: [...url.searchParams.entries()].sort(),
          headers: IDENTITY_HEADERS.map((h) => request.header(h) ?? null),
          body: body ?? null,
        });
        const first = idempotency.lookup(def.operation, echoId, fingerprint);
        if (first !== undefined) {
          status = first.httpStatus;
          send(res, status, first.body, echoId);
          return;
        }
      }

      const reply = await def.handler(request);
      status = reply.httpStatus ?? def.successCode;
      const out = successBody(envelope, status, reply);
      if (fingerprint !== undefined && echoId !== undefined) {
        idempotency.remember(def.operation, echoId, fingerprint, { httpStatus: status, body: out });
      }
      // Saved before the answer leaves, so a caller that crashes right after still finds the state.
      if (method !== 'GET') persist();
      send(res, status, out, echoId);
    } catch (error) {
      const failure =
        error instanceof SandboxError
          ? error
          : new SandboxError(
              `internal sandbox error: ${error instanceof Error ? error.message : String(error)}`,
              500,
            );
      status = failure.httpStatus;
      send(res, status, errorBody(envelope, status, failure.message), echoId);
    } finally {
      options.onRequest?.({
        method,
        path,
        status,
        ...(operation === undefined ? {} : { operation }),
        ms: performance.now() - started,
      });
    }
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    clock,
    credentials,
    stats: () => ({ ...counts }),
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
