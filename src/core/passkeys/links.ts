import { createHash, randomBytes } from 'node:crypto';

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

/** A new link's token; only its digest is kept. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** One-time links (src/core/store/sqlite/passkeys.ts for SQLite), kept by their token's digest. */
export interface LinkStore {
  insert(link: Omit<LinkRow, 'challenge' | 'used_at'>): Promise<void>;
  /** The link of this digest, used or not (the caller says why it cannot be used). */
  find(digest: string, purpose: LinkPurpose): Promise<LinkRow | undefined>;
  setChallenge(digest: string, challenge: string): Promise<void>;
  /** Marks it used; false when someone used it first. */
  claim(digest: string, at: string): Promise<boolean>;
  /** Forgets links that ended before `before`. */
  prune(before: string): Promise<void>;
}
