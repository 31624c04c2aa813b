import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { mcpActor } from '../core/actors.js';
import type { Executor } from '../core/executor.js';
import type { Logger } from '../core/log.js';
import { mcpKeyListed, resolveMcpKey, sha256Hex } from '../core/policy/mcp-keys.js';
import type { PolicyStore } from '../core/policy/store.js';
import type { Registry } from '../core/registry.js';
import type { Toolset } from '../core/toolset.js';
import { bearerKey, CHALLENGE } from './http/auth.js';
import { readJsonBody } from './http/body.js';
import { BoundedEventStore, type EventStoreLimits } from './http/event-store.js';
import { isLoopbackHost, urlHost } from './http/host.js';
import { loopbackOrigins, normalizeOrigin, originAllowed } from './http/origin.js';
import { RPC_ERROR, sendRpcError } from './http/respond.js';
import { type Session, SessionTable } from './http/sessions.js';
import { createMcpServer } from './server.js';

export const MCP_PATH = '/mcp';
export const DEFAULT_MCP_PORT = 8765;

export interface McpHttpOptions {
  /** What the server needs of the runtime (src/app builds it). */
  runtime: { registry: Registry; executor: Executor; policy: PolicyStore; log: Logger };
  /** Loopback by default; anything else also needs `allowRemote` (and TLS in front: docs/mcp-http.md). */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The explicit consent to listen on a non-loopback address. */
  allowRemote?: boolean;
  /** Browser origins allowed besides the server's own loopback origins; requests without Origin pass. */
  allowedOrigins?: readonly string[];
  toolsets?: readonly Toolset[];
  readOnly?: boolean;
  /** Ask the user to confirm writes the policy allows, where the client offers elicitation (default true). */
  confirmWrites?: boolean;
  /** A session with no open request for this long ends (default 30 minutes). */
  idleTimeoutMs?: number;
  /** Most sessions at once; more initializations get 503 (default 64). */
  maxSessions?: number;
  /** Most sessions of one key, so one client cannot take every slot (default 16). */
  maxSessionsPerKey?: number;
  /** Largest POST body (default 1 MiB: tool inputs are small). */
  maxBodyBytes?: number;
  /** Bounds of each session's event store for resumability. */
  eventStore?: Partial<EventStoreLimits>;
  /** On close, how long POSTs in flight (tool calls) may take to finish (default 10 s). */
  drainMs?: number;
  /**
   * After its key leaves the policy, how long a session's open POSTs may take before it ends all
   * the same (default 30 s): a cancelled call's stream is never answered and would hold it forever.
   */
  revokeGraceMs?: number;
}

/**
 * The `/mcp` endpoint as a request handler, for a listener that serves other routes too
 * (`bankops serve`). Its checks (Origin, bearer key, sessions) apply to `/mcp` only.
 */
export interface McpHttpHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Once the listener's port is known: the loopback origins of that port are allowed. */
  listening(port: number): void;
  /** Turns new requests away, lets the tool calls in flight finish (up to `drainMs`), ends every session. */
  close(): Promise<void>;
}

export interface RunningMcpHttp {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  close(): Promise<void>;
}

const DEFAULTS = {
  idleTimeoutMs: 30 * 60_000,
  maxSessions: 64,
  maxSessionsPerKey: 16,
  maxBodyBytes: 1024 * 1024,
  drainMs: 10_000,
  revokeGraceMs: 30_000,
};

/** What `Access-Control-Allow-Headers` must list for a browser client of an allowed origin. */
const CORS_HEADERS =
  'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * MCP over Streamable HTTP at `/mcp` (DESIGN decision 9): bearer keys from the policy, an Origin
 * check, one transport and one MCP server per session, bound to the key that opened it, and an
 * event store per session so a client that lost its stream resumes with `Last-Event-ID`.
 */
export function createMcpHttpHandler(
  options: Omit<McpHttpOptions, 'host' | 'port' | 'allowRemote'>,
): McpHttpHandler {
  const { runtime } = options;
  const { log } = runtime;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
  const maxSessions = options.maxSessions ?? DEFAULTS.maxSessions;
  const maxSessionsPerKey = options.maxSessionsPerKey ?? DEFAULTS.maxSessionsPerKey;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const sessions = new SessionTable(idleTimeoutMs);
  // Filled in once the port is known (it may be 0 until `listen` picks one).
  const allowedOrigins = new Set<string>();

  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    code: number,
    message: string,
    headers: Record<string, string> = {},
  ): void => {
    // Who and why, never the Authorization header: the key is a secret even when it is wrong.
    log.warn('mcp http: request refused', {
      status,
      reason: message,
      method: req.method,
      remote: req.socket.remoteAddress,
    });
    sendRpcError(res, status, code, message, headers);
  };

  const endSession = async (session: Session, why: string): Promise<void> => {
    sessions.delete(session.id);
    log.info('mcp http: session ended', { session: session.id.slice(0, 8), key: session.keyName, why });
    // Closing the transport closes the server connected to it (the SDK chains onclose).
    await session.transport.close();
  };

  const openSession = async (
    req: IncomingMessage,
    res: ServerResponse,
    keyName: string,
    keyDigest: string,
    body: unknown,
  ): Promise<void> => {
    const server = createMcpServer({
      registry: runtime.registry,
      getExecutor: async () => runtime.executor,
      actor: mcpActor(keyName),
      ...(options.toolsets === undefined ? {} : { toolsets: options.toolsets }),
      ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
      ...(options.confirmWrites === undefined ? {} : { confirmWrites: options.confirmWrites }),
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(options.eventStore),
      maxRequestBodySize: maxBodyBytes,
      onsessioninitialized: (id) => {
        const session = sessions.add({ id, keyName, keyDigest, transport, server });
        sessions.track(session, req, res);
        log.info('mcp http: session opened', { session: id.slice(0, 8), key: keyName });
      },
      onsessionclosed: (id) => {
        log.info('mcp http: session ended', { session: id.slice(0, 8), key: keyName, why: 'DELETE' });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    // Transport errors are the client's protocol mistakes (bad Accept, unknown session): debug only.
    transport.onerror = (error) => log.debug('mcp http: transport', { error: error.message });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    // An initialize the transport refused opened no session: nothing else will close this one.
    if (transport.sessionId === undefined) await server.close();
  };

  // Shutting down: new requests are turned away while the POSTs in flight (tool calls, perhaps
  // a payout) finish, because ending a session aborts the calls still running in it.
  let closing = false;
  let postsInFlight = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) {
      sendRpcError(res, 404, RPC_ERROR.server, `Not found: the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    if (closing) {
      sendRpcError(res, 503, RPC_ERROR.server, 'Shutting down; try again shortly', {
        'Retry-After': '5',
        Connection: 'close',
      });
      return;
    }
    if (req.method === 'POST') {
      postsInFlight += 1;
      res.once('close', () => {
        postsInFlight -= 1;
      });
    }
    const origin = header(req, 'origin');
    if (!originAllowed(origin, allowedOrigins)) {
      refuse(req, res, 403, RPC_ERROR.server, 'Forbidden: Origin not allowed');
      return;
    }
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate');
    }
    // A CORS preflight carries no credentials; it only learns what an allowed origin may send.
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST, DELETE',
        'Access-Control-Allow-Headers': CORS_HEADERS,
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }

    // The key is resolved on every request, so a key removed from the policy stops working at once.
    const key = bearerKey(req);
    if (key === undefined) {
      refuse(req, res, 401, RPC_ERROR.server, 'Unauthorized: send Authorization: Bearer <key>', {
        'WWW-Authenticate': CHALLENGE.missing,
      });
      return;
    }
    const keyName = resolveMcpKey(runtime.policy.current(), key);
    if (keyName === undefined) {
      refuse(req, res, 401, RPC_ERROR.server, 'Unauthorized: the key is not in the policy', {
        'WWW-Authenticate': CHALLENGE.invalid,
      });
      return;
    }
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      sendRpcError(res, 405, RPC_ERROR.server, 'Method not allowed', { Allow: 'GET, POST, DELETE' });
      return;
    }

    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJsonBody(req, maxBodyBytes);
      if (!read.ok) {
        if (read.reason === 'too_large') {
          refuse(req, res, 413, RPC_ERROR.server, `Payload too large: at most ${maxBodyBytes} bytes`, {
            Connection: 'close',
          });
        } else if (read.reason === 'invalid_json') {
          sendRpcError(res, 400, RPC_ERROR.parse, 'Parse error: Invalid JSON');
        }
        return;
      }
      body = read.value;
    }

    const sessionId = header(req, 'mcp-session-id');
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // Another key's session answers like an unknown one: a key learns nothing about other sessions.
      if (session === undefined || session.keyName !== keyName) {
        if (session !== undefined) {
          log.warn('mcp http: a key used another key’s session', { key: keyName, owner: session.keyName });
        }
        sendRpcError(res, 404, RPC_ERROR.sessionNotFound, 'Session not found');
        return;
      }
      sessions.track(session, req, res);
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      sendRpcError(
        res,
        400,
        RPC_ERROR.server,
        'Bad Request: send initialize first, then the Mcp-Session-Id it returns',
      );
      return;
    }
    if (sessions.size >= maxSessions || sessions.countOf(keyName) >= maxSessionsPerKey) {
      refuse(req, res, 503, RPC_ERROR.server, 'Too many sessions; try again later', { 'Retry-After': '60' });
      return;
    }
    await openSession(req, res, keyName, sha256Hex(key), body);
  };

  // Each request checks its key, but an SSE stream stays open without one: the sessions of a key
  // the policy no longer lists (removed or rotated) end within a second of the change, once the
  // tool calls they have running are answered (ending a session aborts them), or after a grace.
  const revokeGraceMs = options.revokeGraceMs ?? DEFAULTS.revokeGraceMs;
  const sweep = setInterval(
    () => {
      const policy = runtime.policy.current();
      const now = Date.now();
      for (const session of sessions.all()) {
        if (mcpKeyListed(policy, session.keyName, session.keyDigest)) {
          delete session.revokedAt;
          continue;
        }
        session.revokedAt ??= now;
        if (session.posts === 0 || now - session.revokedAt >= revokeGraceMs) {
          void endSession(session, 'key revoked');
        }
      }
      for (const session of sessions.idle()) void endSession(session, 'idle');
    },
    Math.max(50, Math.min(1_000, Math.floor(idleTimeoutMs / 2))),
  );
  sweep.unref();

  return {
    handle,
    listening: (port) => {
      for (const origin of [...loopbackOrigins(port), ...(options.allowedOrigins ?? [])]) {
        allowedOrigins.add(normalizeOrigin(origin));
      }
    },
    close: async () => {
      closing = true;
      clearInterval(sweep);
      const deadline = Date.now() + (options.drainMs ?? DEFAULTS.drainMs);
      while (postsInFlight > 0 && Date.now() < deadline) await delay(25);
      if (postsInFlight > 0) log.warn('mcp http: closing with tool calls still running', { postsInFlight });
      await Promise.allSettled(sessions.all().map((s) => endSession(s, 'shutdown')));
    },
  };
}

/** MCP alone on its own listener (`/mcp`; everything else 404). `bankops serve` mounts the handler instead. */
export async function startMcpHttp(options: McpHttpOptions): Promise<RunningMcpHttp> {
  const { log } = options.runtime;
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    throw new Error(
      `refusing to listen on ${host}: MCP over HTTP listens on loopback unless told otherwise explicitly (docs/mcp-http.md)`,
    );
  }
  const mcp = createMcpHttpHandler(options);
  const server: Server = createServer((req, res) => {
    mcp.handle(req, res).catch((error: unknown) => {
      log.error('mcp http: request failed', {
        method: req.method,
        error: error instanceof Error ? error.message : String(error),
      });
      sendRpcError(res, 500, RPC_ERROR.server, 'Internal error');
    });
  });
  // SSE streams stay open for a long time; Node's default request timeout would cut them.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_MCP_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  mcp.listening(port);
  if (!isLoopbackHost(host)) {
    log.warn('mcp http: listening on a non-loopback address; terminate TLS in a reverse proxy in front', {
      host,
      port,
    });
  }
  return {
    url: `http://${urlHost(host)}:${port}${MCP_PATH}`,
    port,
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
