import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Actor } from '../policy/types.js';

export const LINK_PURPOSES = ['enroll', 'approve', 'break_glass'] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

/** A one-time link to a passkey page, kept by its token's digest. */
export const LinkSchema = z.object({
  /** SHA-256 of the token, hex: the token itself is never stored. */
  digest: z.string(),
  purpose: z.enum(LINK_PURPOSES),
  /** Whose passkey is enrolled, or who votes (or breaks the glass) through the link. */
  person: z.string(),
  /** Who the link acts as: the person's identity that asked for it. */
  actor: z.custom<Actor>(),
  approvalId: z.string().nullable(),
  /** Break-glass: the reason given with the command, which the passkey signs with the rest. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** The WebAuthn challenge the page was given, once it asked. */
  challenge: z.string().nullable(),
  usedAt: z.string().nullable(),
});
export type Link = z.infer<typeof LinkSchema>;

/** How long a link lasts: enrolment 15 minutes, an approval or a break-glass 5. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  enroll: 15 * 60_000,
  approve: 5 * 60_000,
  break_glass: 5 * 60_000,
};

/** The database key of a token: its SHA-256. The token itself is never stored nor logged. */
export const digestOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A token as it travels in a URL path: 256 random bits, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const looksLikeToken = (text: string): boolean => TOKEN.test(text);

/** A new link's token; only its digest is kept. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** One-time links (src/core/store/sqlite/passkeys.ts for SQLite), kept by their token's digest. */
export interface LinkStore {
  insert(link: Omit<Link, 'challenge' | 'usedAt'>): Promise<void>;
  /** The link of this digest, used or not (the caller says why it cannot be used). */
  find(digest: string, purpose: LinkPurpose): Promise<Link | undefined>;
  setChallenge(digest: string, challenge: string): Promise<void>;
  /** Marks it used; false when someone used it first. */
  claim(digest: string, at: string): Promise<boolean>;
  /** Forgets links that ended before `before`. */
  prune(before: string): Promise<void>;
}
