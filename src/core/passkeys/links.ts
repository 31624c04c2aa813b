import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db.js';

export type LinkPurpose = 'enroll' | 'approve';

export interface LinkRow {
  digest: string;
  purpose: LinkPurpose;
  person: string;
  actor_json: string;
  approval_id: string | null;
  created_at: string;
  expires_at: string;
  challenge: string | null;
  used_at: string | null;
}

/** How long a link lasts: enrolment 15 minutes, an approval 5. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = { enroll: 15 * 60_000, approve: 5 * 60_000 };

/** The database key of a token: its SHA-256. The token itself is never stored nor logged. */
export const digestOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A token as it travels in a URL path: 256 random bits, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const looksLikeToken = (text: string): boolean => TOKEN.test(text);

/** The SQL of one-time links. */
export class LinkStore {
  /** The connection's own setting, restored after a claim. */
  readonly #synchronous: string;

  constructor(private readonly db: Db) {
    this.#synchronous = String(db.pragma('synchronous', { simple: true })) === '1' ? 'NORMAL' : 'FULL';
  }

  /** A new link's token; only its digest is kept. */
  issue(link: Omit<LinkRow, 'digest' | 'challenge' | 'used_at'>): string {
    const token = randomBytes(32).toString('base64url');
    this.db
      .prepare(
        `INSERT INTO passkey_links (digest, purpose, person, actor_json, approval_id, created_at, expires_at)
         VALUES (@digest, @purpose, @person, @actor_json, @approval_id, @created_at, @expires_at)`,
      )
      .run({ ...link, digest: digestOf(token) });
    return token;
  }

  /** The link of this token, used or not (the caller says why it cannot be used). */
  find(token: string, purpose: LinkPurpose): LinkRow | undefined {
    if (!looksLikeToken(token)) return undefined;
    return this.db
      .prepare('SELECT * FROM passkey_links WHERE digest = ? AND purpose = ?')
      .get(digestOf(token), purpose) as LinkRow | undefined;
  }

  setChallenge(digest: string, challenge: string): void {
    this.db
      .prepare('UPDATE passkey_links SET challenge = ? WHERE digest = ? AND used_at IS NULL')
      .run(challenge, digest);
  }

  /**
   * Marks it used; false when someone used it first. Committed without an fsync of its own: the
   * vote or passkey it leads to is committed with one right after, which puts this claim (earlier
   * in the same WAL) on disk too; a power cut before that loses a claim that led to nothing.
   */
  claim(digest: string, at: string): boolean {
    this.db.pragma('synchronous = NORMAL');
    try {
      return (
        this.db
          .prepare('UPDATE passkey_links SET used_at = ? WHERE digest = ? AND used_at IS NULL')
          .run(at, digest).changes === 1
      );
    } finally {
      this.db.pragma(`synchronous = ${this.#synchronous}`);
    }
  }

  /** Forgets links that ended more than a day ago. */
  prune(before: string): void {
    this.db.prepare('DELETE FROM passkey_links WHERE expires_at < ?').run(before);
  }
}
