import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type McpServer } from '@modelcontextprotocol/server';
import type { Logger } from '../../core/log.js';
import { optional } from '../../core/optional.js';
import { mcpKeyListed } from '../../core/policy/mcp-keys.js';
import type { Policy } from '../../core/policy/schema.js';
import type { Actor } from '../../core/policy/types.js';
import { BoundedEventStore, type EventStoreLimits } from './event-store.js';
import { RPC_ERROR, sendRpcError } from './respond.js';
import { type Session, SessionTable } from './sessions.js';

export interface LegacySessionOptions {
  /** A server for a new session of this key (the tools, resources, the key's actor). */
  createServer: (actor: Actor) => McpServer;
  log: Logger;
  idleTimeoutMs: number;
  maxSessions: number;
  maxSessionsPerKey: number;
  revokeGraceMs: number;
  eventStore?: Partial<EventStoreLimits>;
}

/**
 * Who sent a request: the key's name in the policy and the SHA-256 of the key, or for an access
 * token its person (`oidc:<iss> <sub>`, no digest), its scopes and when it expires.
 */
export interface KeyOf {
  name: string;
  digest: string;
  actor: Actor;
  token?: { scopes: string[]; expiresAt: number };
}

/**
 * MCP for 2025-era clients (protocol 2025-11-25, 2025-06-18): sessions, because what they expect
 * of a server needs one (elicitation pushed to the client and answered on another POST, the GET
 * stream, DELETE, resumption with `Last-Event-ID`). One transport and one server per session,
 * bound to the key that opened it. Sessions live in this process: behind several replicas a 2025
 * client needs sticky routing on `Mcp-Session-Id` (2026-07-28 clients need none).
 */
export class LegacySessions {
  readonly #options: LegacySessionOptions;
  readonly #sessions: SessionTable;

  constructor(options: LegacySessionOptions) {
    this.#options = options;
    this.#sessions = new SessionTable(options.idleTimeoutMs);
  }

  get size(): number {
    return this.#sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, key: KeyOf, body: unknown): Promise<void> {
    const { log } = this.#options;
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.#sessions.get(sessionId);
      // Another key's session answers like an unknown one: a key learns nothing about other sessions.
      if (session === undefined || session.keyName !== key.name) {
        if (session !== undefined) {
          log.warn('mcp http: a key used another key’s session', { key: key.name, owner: session.keyName });
        }
        sendRpcError(res, 404, RPC_ERROR.sessionNotFound, 'Session not found');
        return;
      }
      if (key.token !== undefined) session.tokenExpiresAt = key.token.expiresAt;
      this.#sessions.track(session, req, res);
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
    if (!(await this.#makeRoom(key.name))) {
      log.warn('mcp http: request refused', { status: 503, reason: 'every session is busy', key: key.name });
      sendRpcError(res, 503, RPC_ERROR.server, 'Every session is answering a request; try again later', {
        'Retry-After': '60',
      });
      return;
    }
    await this.#open(req, res, key, body);
  }

  /**
   * Room for one more session of this key: at a limit, the least recently used session answering no
   * request (of this key for the per-key limit, of any key for the total) ends, its GET stream with
   * it. Refused only when every session in the way has a request being answered.
   */
  async #makeRoom(keyName: string): Promise<boolean> {
    const { maxSessions, maxSessionsPerKey } = this.#options;
    while (this.#sessions.countOf(keyName) >= maxSessionsPerKey) {
      const oldest = this.#sessions.leastRecentlyUsedIdle(keyName);
      if (oldest === undefined) return false;
      await this.end(oldest, 'evicted (least recently used)');
    }
    while (this.#sessions.size >= maxSessions) {
      const oldest = this.#sessions.leastRecentlyUsedIdle();
      if (oldest === undefined) return false;
      await this.end(oldest, 'evicted (least recently used)');
    }
    return true;
  }

  async #open(req: IncomingMessage, res: ServerResponse, key: KeyOf, body: unknown): Promise<void> {
    const { log } = this.#options;
    const server = this.#options.createServer(key.actor);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(this.#options.eventStore),
      onsessioninitialized: (id) => {
        const session = this.#sessions.add({
          id,
          keyName: key.name,
          keyDigest: key.digest,
          ...optional('tokenExpiresAt', key.token?.expiresAt),
          transport,
          server,
        });
        this.#sessions.track(session, req, res);
        log.info('mcp http: session opened', { session: id.slice(0, 8), key: key.name });
      },
      onsessionclosed: (id) => {
        log.info('mcp http: session ended', { session: id.slice(0, 8), key: key.name, why: 'DELETE' });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    // Transport errors are the client's protocol mistakes (bad Accept, unknown session): debug only.
    transport.onerror = (error) => log.debug('mcp http: transport', { error: error.message });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    // An initialize the transport refused opened no session: nothing else will close this one.
    if (transport.sessionId === undefined) await server.close();
  }

  async end(session: Session, why: string): Promise<void> {
    this.#sessions.delete(session.id);
    this.#options.log.info('mcp http: session ended', {
      session: session.id.slice(0, 8),
      key: session.keyName,
      why,
    });
    // Closing the transport closes the server connected to it (the SDK chains onclose).
    await session.transport.close();
  }

  /**
   * Each request checks its key, but an SSE stream stays open without one: the sessions of a key
   * the policy no longer lists (removed or rotated) end once the tool calls they have running are
   * answered (ending a session aborts them), or after a grace; idle sessions end too.
   */
  sweep(policy: Policy, now = Date.now()): void {
    for (const session of this.#sessions.all()) {
      const valid =
        session.tokenExpiresAt === undefined
          ? mcpKeyListed(policy, session.keyName, session.keyDigest)
          : now < session.tokenExpiresAt;
      if (valid) {
        delete session.revokedAt;
        continue;
      }
      session.revokedAt ??= now;
      if (session.posts === 0 || now - session.revokedAt >= this.#options.revokeGraceMs) {
        void this.end(session, 'key revoked');
      }
    }
    for (const session of this.#sessions.idle()) void this.end(session, 'idle');
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.#sessions.all().map((s) => this.end(s, 'shutdown')));
  }
}
