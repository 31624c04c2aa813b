import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';

/** One 2025-era MCP session: its own transport and server, bound to the key that opened it. */
export interface Session {
  id: string;
  /** The policy's name of the key that opened the session; no other key may use it. */
  keyName: string;
  /** The SHA-256 of that key: a session ends when the policy no longer lists it (removed or rotated). */
  keyDigest: string;
  transport: NodeStreamableHTTPServerTransport;
  server: McpServer;
  /** When the last request on the session ended (or began, while none has ended yet). */
  lastSeen: number;
  /** Requests still open, SSE streams included: a session with an open stream is not idle. */
  open: number;
  /** POSTs still open (tool calls among them): a revoked key's session ends once they are answered. */
  posts: number;
  /**
   * An access token's session: when the last token presented on it expires. Each request checks its
   * token; an open stream outliving every token ends like a revoked key's.
   */
  tokenExpiresAt?: number;
  /** When the sweep first found the session's key gone from the policy. */
  revokedAt?: number;
}

/**
 * The live sessions by id. A session ends on DELETE, on `close()`, after `idleMs` with no request
 * open, or when a new session needs its place and it is the least recently used one answering no
 * request: a client that vanished without DELETE (most do) must never lock its key out.
 */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #now: () => number;

  constructor(idleMs: number, now: () => number = Date.now) {
    this.#idleMs = idleMs;
    this.#now = now;
  }

  get size(): number {
    return this.#sessions.size;
  }

  countOf(keyName: string): number {
    let count = 0;
    for (const session of this.#sessions.values()) if (session.keyName === keyName) count += 1;
    return count;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  add(session: Omit<Session, 'lastSeen' | 'open' | 'posts'>): Session {
    const entry: Session = { ...session, lastSeen: this.#now(), open: 0, posts: 0 };
    this.#sessions.set(entry.id, entry);
    return entry;
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** Counts the request as open until its response closes (an SSE stream may stay open long). */
  track(session: Session, req: IncomingMessage, res: ServerResponse): void {
    const post = req.method === 'POST';
    session.open += 1;
    if (post) session.posts += 1;
    session.lastSeen = this.#now();
    res.once('close', () => {
      session.open -= 1;
      if (post) session.posts -= 1;
      session.lastSeen = this.#now();
    });
  }

  /** Sessions with nothing open for longer than the idle timeout. */
  idle(): Session[] {
    const now = this.#now();
    return [...this.#sessions.values()].filter((s) => s.open <= 0 && now - s.lastSeen > this.#idleMs);
  }

  /**
   * The least recently used session with no request being answered, of this key or of any
   * (`keyName` undefined): the one to end so a new session fits. An open GET stream does not make a
   * session busy: it only listens, and a client that left without DELETE often leaves it open (the
   * official conformance suite does, one session per scenario). Undefined when every one is busy.
   */
  leastRecentlyUsedIdle(keyName?: string): Session | undefined {
    let oldest: Session | undefined;
    for (const session of this.#sessions.values()) {
      if (session.posts > 0 || (keyName !== undefined && session.keyName !== keyName)) continue;
      if (oldest === undefined || session.lastSeen < oldest.lastSeen) oldest = session;
    }
    return oldest;
  }

  all(): Session[] {
    return [...this.#sessions.values()];
  }
}
