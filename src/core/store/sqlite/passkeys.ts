import type { CredentialStore, Passkey } from '../../passkeys/credentials.js';
import type { Link, LinkPurpose, LinkStore } from '../../passkeys/links.js';
import {
  LINK_INSERT_COLUMNS,
  type LinkRow,
  PASSKEY_INSERT_COLUMNS,
  type PasskeyRow,
  passkeyCodec,
} from '../rows/passkeys.js';
import type { Db } from './database.js';
import { sqliteJson } from './json.js';

const codec = passkeyCodec(sqliteJson);
const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** Registered passkeys in SQLite. */
export class SqliteCredentialStore implements CredentialStore {
  constructor(private readonly db: Db) {}

  #one(sql: string, ...params: unknown[]): Passkey | undefined {
    const row = this.db.prepare(sql).get(...params) as PasskeyRow | undefined;
    return row === undefined ? undefined : codec.passkeyOf(row);
  }

  async byId(credentialId: string): Promise<Passkey | undefined> {
    return this.#one('SELECT * FROM passkeys WHERE credential_id = ?', credentialId);
  }

  async active(person: string): Promise<Passkey[]> {
    return (
      this.db
        .prepare('SELECT * FROM passkeys WHERE person = ? AND revoked_at IS NULL ORDER BY created_at, rowid')
        .all(person) as PasskeyRow[]
    ).map(codec.passkeyOf);
  }

  async activeNamed(person: string, name: string): Promise<Passkey | undefined> {
    return this.#one(
      'SELECT * FROM passkeys WHERE person = ? AND name = ? AND revoked_at IS NULL',
      person,
      name,
    );
  }

  async insert(passkey: Omit<Passkey, 'lastUsedAt' | 'revokedAt'>): Promise<void> {
    this.db
      .prepare(`INSERT INTO passkeys (${PASSKEY_INSERT_COLUMNS}) VALUES (${marks(7)})`)
      .run(...codec.passkeyValues(passkey));
  }

  async used(credentialId: string, counter: number, at: string): Promise<boolean> {
    const result = this.db
      .prepare(
        `UPDATE passkeys SET counter = @counter, last_used_at = @at
         WHERE credential_id = @id AND revoked_at IS NULL AND (@counter > counter OR (@counter = 0 AND counter = 0))`,
      )
      .run({ id: credentialId, counter, at });
    return result.changes === 1;
  }

  async revoke(credentialId: string, at: string): Promise<void> {
    this.db.prepare('UPDATE passkeys SET revoked_at = ? WHERE credential_id = ?').run(at, credentialId);
  }
}

/** One-time links in SQLite. */
export class SqliteLinkStore implements LinkStore {
  constructor(private readonly db: Db) {}

  async insert(link: Omit<Link, 'challenge' | 'usedAt'>): Promise<void> {
    this.db
      .prepare(`INSERT INTO passkey_links (${LINK_INSERT_COLUMNS}) VALUES (${marks(8)})`)
      .run(...codec.linkValues(link));
  }

  async find(digest: string, purpose: LinkPurpose): Promise<Link | undefined> {
    const row = this.db
      .prepare('SELECT * FROM passkey_links WHERE digest = ? AND purpose = ?')
      .get(digest, purpose) as LinkRow | undefined;
    return row === undefined ? undefined : codec.linkOf(row);
  }

  async setChallenge(digest: string, challenge: string): Promise<void> {
    this.db
      .prepare('UPDATE passkey_links SET challenge = ? WHERE digest = ? AND used_at IS NULL')
      .run(challenge, digest);
  }

  async claim(digest: string, at: string): Promise<boolean> {
    return (
      this.db
        .prepare('UPDATE passkey_links SET used_at = ? WHERE digest = ? AND used_at IS NULL')
        .run(at, digest).changes === 1
    );
  }

  async prune(before: string): Promise<void> {
    this.db.prepare('DELETE FROM passkey_links WHERE expires_at < ?').run(before);
  }
}
