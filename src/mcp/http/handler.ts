import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { type NodeIncomingMessageLike, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { mcpActor } from '../../core/actors.js';
import { internalError } from '../../core/errors.js';
import type { Executor } from '../../core/executor.js';
import { header, readJsonBody } from '../../core/http-server.js';
import type { Logger } from '../../core/log.js';
import { optional } from '../../core/optional.js';
import { resolveMcpKey, sha256Hex } from '../../core/policy/mcp-keys.js';
import type { PolicyStore } from '../../core/policy/store.js';
import type { Actor } from '../../core/policy/types.js';
import type { Registry } from '../../core/registry.js';
import type { Toolset } from '../../core/toolset.js';
import { createMcpServer } from '../server.js';
import { bearerKey, CHALLENGE } from './auth.js';
import type { EventStoreLimits } from './event-store.js';
import { hostAllowed } from './host.js';
import { type KeyOf, LegacySessions } from './legacy.js';
import type { Admission, OAuthResource } from './oauth.js';
import { normalizeOrigin, originAllowed } from './origin.js';
import { RPC_ERROR, sendRpcError } from './respond.js';

export interface McpHttpHandlerOptions {
  /** What the server needs of the runtime (src/app builds it). */
  runtime: { registry: Registry; executor: Executor; policy: PolicyStore; log: Logger };
  /**
   * Host names allowed besides loopback ones (`host` on any port, `host:port`), e.g. the public name
   * a TLS proxy or tunnel forwards to this listener. Anything else is refused (DNS rebinding).
   */
  allowedHosts?: readonly string[];
  /** Browser origins allowed besides the listener's own loopback origins; requests without Origin pass. */
  allowedOrigins?: readonly string[];
  toolsets?: readonly Toolset[];
  /** OAuth 2.1 resource server for people (`BANKOPS_OAUTH_ISSUER`), beside the policy's keys. */
  oauth?: OAuthResource;
  readOnly?: boolean;
  /** Offer the tools whose input is a PIN, a code or a card number (off by default). */
  secretInputs?: boolean;
  /** Ask the user to confirm writes the policy allows, where the client can show a form (default true). */
  confirmWrites?: boolean;
  /** A 2025-era session with no open request for this long ends (default 30 minutes). */
  idleTimeoutMs?: number;
  /** Most 2025-era sessions at once; the least recently used idle one makes room (default 64). */
  maxSessions?: number;
  /** Most 2025-era sessions of one key (default 16); likewise. */
  maxSessionsPerKey?: number;
  /** Largest POST body (default 1 MiB: tool inputs are small). */
  maxBodyBytes?: number;
  /** Bounds of each 2025-era session's event store for resumability. */
  eventStore?: Partial<EventStoreLimits>;
  /** On close, how long POSTs in flight (tool calls) may take to finish (default 10 s). */
  drainMs?: number;
  /**
   * After its key leaves the policy, how long a 2025-era session's open POSTs may take before it
   * ends all the same (default 30 s): a cancelled call's stream is never answered.
   */
  revokeGraceMs?: number;
}

/** MCP at `/mcp`, to mount on a Node `http` server: `handle` serves requests under that path. */
export interface McpHttpHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Turns new requests away, lets tool calls in flight finish (up to `drainMs`), ends every session. */
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
  'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name';

/** Node's own request, as the SDK's adapter types it (`method?: string` where Node has `| undefined`). */
const nodeLike = (req: IncomingMessage): NodeIncomingMessageLike => req as NodeIncomingMessageLike;

/**
 * MCP over Streamable HTTP (DESIGN decision 9): the Host and Origin checks, a bearer key from the
 * policy on every request, then by protocol era. 2026-07-28 clients are served statelessly (a
 * server per request, the key checked each time), so any replica on the same database answers any
 * request; 2025-era clients get sessions (legacy.ts).
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  return new McpHttp(options);
}

/** The per-request MCP server of a key or a person: its actor; the key or token goes no further. */
function serverFactory(options: McpHttpHandlerOptions) {
  const { runtime } = options;
  return (actor: Actor) =>
    createMcpServer({
      registry: runtime.registry,
      getExecutor: async () => runtime.executor,
      actor,
      ...optional('toolsets', options.toolsets),
      ...optional('readOnly', options.readOnly),
      ...optional('secretInputs', options.secretInputs),
      ...optional('confirmWrites', options.confirmWrites),
    });
}

class McpHttp implements McpHttpHandler {
  readonly #options: McpHttpHandlerOptions;
  readonly #log: Logger;
  readonly #maxBodyBytes: number;
  readonly #allowedHosts: readonly string[];
  readonly #allowedOrigins: ReadonlySet<string>;
  /** The 2026 era: stateless, one server per request. */
  readonly #modern: ReturnType<typeof createMcpHandler>;
  readonly #serveModern: ReturnType<typeof toNodeHandler>;
  /** The 2025 era: sessions, resumable streams. */
  readonly #legacy: LegacySessions;
  readonly #sweep: NodeJS.Timeout;
  // Shutting down: new requests are turned away while the POSTs in flight (tool calls, perhaps
  // a payout) finish, because ending a session aborts the calls still running in it.
  #closing = false;
  #postsInFlight = 0;
  /** The actor of each modern request, by the auth info handed to the SDK. */
  readonly #actors = new WeakMap<AuthInfo, Actor>();

  constructor(options: McpHttpHandlerOptions) {
    this.#options = options;
    const { runtime } = options;
    this.#log = runtime.log;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
    this.#allowedHosts = options.allowedHosts ?? [];
    this.#allowedOrigins = new Set((options.allowedOrigins ?? []).map(normalizeOrigin));
    const serverFor = serverFactory(options);
    const onerror = (error: Error) => this.#log.debug('mcp http: protocol', { error: error.message });
    this.#modern = createMcpHandler(
      ({ authInfo }) => {
        const actor = authInfo === undefined ? undefined : this.#actors.get(authInfo);
        if (actor === undefined) throw internalError('no key on a request that passed the key check');
        return serverFor(actor);
      },
      { legacy: 'reject', maxRequestBodySize: this.#maxBodyBytes, onerror },
    );
    this.#serveModern = toNodeHandler(this.#modern, { maxRequestBodySize: this.#maxBodyBytes, onerror });
    const idleMs = options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
    this.#legacy = new LegacySessions({
      createServer: serverFor,
      log: this.#log,
      idleTimeoutMs: idleMs,
      maxSessions: options.maxSessions ?? DEFAULTS.maxSessions,
      maxSessionsPerKey: options.maxSessionsPerKey ?? DEFAULTS.maxSessionsPerKey,
      revokeGraceMs: options.revokeGraceMs ?? DEFAULTS.revokeGraceMs,
      ...optional('eventStore', options.eventStore),
    });
    this.#sweep = setInterval(
      () => this.#legacy.sweep(runtime.policy.current()),
      Math.max(50, Math.min(1_000, Math.floor(idleMs / 2))),
    );
    this.#sweep.unref();
  }

  readonly handle = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    this.#serve(req, res).catch((error: unknown) => {
      this.#log.error('mcp http: request failed', { method: req.method, error });
      sendRpcError(res, 500, RPC_ERROR.server, 'Internal error');
    });

  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#sweep);
    const deadline = Date.now() + (this.#options.drainMs ?? DEFAULTS.drainMs);
    while (this.#postsInFlight > 0 && Date.now() < deadline) await delay(25);
    if (this.#postsInFlight > 0) {
      this.#log.warn('mcp http: closing with tool calls still running', {
        postsInFlight: this.#postsInFlight,
      });
    }
    await this.#legacy.closeAll();
    await this.#modern.close();
  }

  #refuse(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ): void {
    // Who and why, never the Authorization header: the key is a secret even when it is wrong.
    this.#log.warn('mcp http: request refused', {
      status,
      reason: message,
      method: req.method,
      remote: req.socket.remoteAddress,
    });
    sendRpcError(res, status, RPC_ERROR.server, message, headers);
  }

  /** The checks every request passes before its era matters; the key's name, or undefined once answered. */
  async #admit(req: IncomingMessage, res: ServerResponse): Promise<KeyOf | undefined> {
    if (!hostAllowed(header(req, 'host'), this.#allowedHosts)) {
      this.#refuse(req, res, 403, 'Forbidden: Host not allowed');
      return undefined;
    }
    const origin = header(req, 'origin');
    if (!originAllowed(origin, req.socket.localPort ?? 0, this.#allowedOrigins)) {
      this.#refuse(req, res, 403, 'Forbidden: Origin not allowed');
      return undefined;
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
      return undefined;
    }
    return await this.#authenticate(req, res);
  }

  /**
   * The bearer key, resolved on every request: a key removed from the policy stops working at once.
   * With OAuth on, anything else presented is an access token, checked on every request too.
   */
  async #authenticate(req: IncomingMessage, res: ServerResponse): Promise<KeyOf | undefined> {
    const { oauth } = this.#options;
    const key = bearerKey(req);
    if (key === undefined) {
      this.#refuse(req, res, 401, 'Unauthorized: send Authorization: Bearer <key>', {
        'WWW-Authenticate': oauth?.challenge() ?? CHALLENGE.missing,
      });
      return undefined;
    }
    const policy = this.#options.runtime.policy.current();
    const name = resolveMcpKey(policy, key);
    let found: KeyOf;
    if (name !== undefined) {
      found = { name, digest: sha256Hex(key), actor: mcpActor(name) };
    } else if (oauth !== undefined) {
      const admitted = await oauth.admit(key, policy);
      if (!admitted.ok) {
        this.#refuseAdmission(req, res, admitted);
        return undefined;
      }
      const { oidc } = admitted.actor;
      found = {
        name: `oidc:${oidc?.iss ?? ''} ${oidc?.sub ?? ''}`,
        digest: '',
        actor: admitted.actor,
        token: { scopes: admitted.scopes, expiresAt: admitted.expiresAt },
      };
    } else {
      this.#refuse(req, res, 401, 'Unauthorized: the key is not in the policy', {
        'WWW-Authenticate': CHALLENGE.invalid,
      });
      return undefined;
    }
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      sendRpcError(res, 405, RPC_ERROR.server, 'Method not allowed', { Allow: 'GET, POST, DELETE' });
      return undefined;
    }
    return found;
  }

  #refuseAdmission(req: IncomingMessage, res: ServerResponse, refused: Admission & { ok: false }): void {
    this.#refuse(req, res, refused.status, refused.message, { 'WWW-Authenticate': refused.challenge });
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.#closing) {
      sendRpcError(res, 503, RPC_ERROR.server, 'Shutting down; try again shortly', {
        'Retry-After': '5',
        Connection: 'close',
      });
      return;
    }
    if (req.method === 'POST') {
      this.#postsInFlight += 1;
      res.once('close', () => {
        this.#postsInFlight -= 1;
      });
    }
    const key = await this.#admit(req, res);
    if (key === undefined) return;
    // GET (the 2025 stream) and DELETE (end a session) belong to 2025-era sessions only.
    if (req.method !== 'POST') return this.#legacy.handle(req, res, key, undefined);
    return this.#servePost(req, res, key);
  }

  /** A POST: its body read within bounds, then to the era it speaks. */
  async #servePost(req: IncomingMessage, res: ServerResponse, key: KeyOf): Promise<void> {
    if (!isJsonContentType(header(req, 'content-type'))) {
      sendRpcError(res, 415, RPC_ERROR.server, 'Unsupported Media Type: send Content-Type: application/json');
      return;
    }
    const read = await readJsonBody(req, this.#maxBodyBytes);
    if (!read.ok) {
      if (read.reason === 'too_large') {
        this.#refuse(req, res, 413, `Payload too large: at most ${this.#maxBodyBytes} bytes`, {
          Connection: 'close',
        });
      } else if (read.reason === 'invalid_json') {
        sendRpcError(res, 400, RPC_ERROR.parse, 'Parse error: Invalid JSON');
      }
      return;
    }
    const body = read.value;
    const refused =
      key.token === undefined
        ? undefined
        : this.#options.oauth?.scopeRefusal(body, key.token.scopes, this.#options.runtime.registry);
    if (refused !== undefined && !refused.ok) {
      this.#refuseAdmission(req, res, refused);
      return;
    }
    const request = await toWebRequest(nodeLike(req), body);
    if (await isLegacyRequest(request, body, { maxRequestBodySize: this.#maxBodyBytes })) {
      await this.#legacy.handle(req, res, key, body);
      return;
    }
    // The key's actor reaches the per-request server; the key or token itself goes no further.
    const authInfo: AuthInfo = { token: key.digest, clientId: key.name, scopes: key.token?.scopes ?? [] };
    this.#actors.set(authInfo, key.actor);
    await this.#serveModern(Object.assign(nodeLike(req), { auth: authInfo }), res, body);
  }
}
