import type { Passkey } from '../../passkeys/credentials.js';
import type { Link, LinkPurpose } from '../../passkeys/links.js';
import type { JsonColumns } from './json.js';

/** A row of `passkeys`, `transports` as the backend keeps JSON. */
export interface PasskeyRow {
  credential_id: string;
  person: string;
  name: string;
  public_key: string;
  counter: number;
  transports: unknown;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A row of `passkey_links`, `actor_json` as the backend keeps JSON. */
export interface LinkRow {
  digest: string;
  purpose: LinkPurpose;
  person: string;
  actor_json: unknown;
  approval_id: string | null;
  /** NULL in rows made before break-glass links (and in every other kind of link). */
  reason: string | null;
  created_at: string;
  expires_at: string;
  challenge: string | null;
  used_at: string | null;
}

/** The row codec of passkeys and their links for one backend's JSON columns. */
export function passkeyCodec(json: JsonColumns) {
  return {
    passkeyOf: (row: PasskeyRow): Passkey => ({
      credentialId: row.credential_id,
      person: row.person,
      name: row.name,
      publicKey: row.public_key,
      counter: row.counter,
      transports: json.read(row.transports) as string[],
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    }),
    /** The values of an insert, in the column order of `PASSKEY_INSERT`. */
    passkeyValues: (p: Omit<Passkey, 'lastUsedAt' | 'revokedAt'>): unknown[] => [
      p.credentialId,
      p.person,
      p.name,
      p.publicKey,
      p.counter,
      json.write(p.transports),
      p.createdAt,
    ],
    linkOf: (row: LinkRow): Link => ({
      digest: row.digest,
      purpose: row.purpose,
      person: row.person,
      actor: json.read(row.actor_json) as Link['actor'],
      approvalId: row.approval_id,
      reason: row.reason ?? null,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      challenge: row.challenge,
      usedAt: row.used_at,
    }),
    /** The values of an insert, in the column order of `LINK_INSERT`. */
    linkValues: (l: Omit<Link, 'challenge' | 'usedAt'>): unknown[] => [
      l.digest,
      l.purpose,
      l.person,
      json.write(l.actor),
      l.approvalId,
      l.createdAt,
      l.expiresAt,
      l.reason,
    ],
  };
}

export const PASSKEY_INSERT_COLUMNS =
  'credential_id, person, name, public_key, counter, transports, created_at';
export const LINK_INSERT_COLUMNS =
  'digest, purpose, person, actor_json, approval_id, created_at, expires_at, reason';
