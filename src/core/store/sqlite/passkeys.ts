import type { Db } from '../../db.js';
import type { CredentialStore, PasskeyRow } from '../../passkeys/credentials.js';
import type { LinkPurpose, LinkRow, LinkStore } from '../../passkeys/links.js';

/** Registered passkeys in SQLite. */
export class SqliteCredentialStore implements CredentialStore {
  constructor(private readonly db: Db) {}

  async byId(credentialId: string): Promise<PasskeyRow | undefined> {
    return this.db.prepare('SELECT * FROM passkeys WHERE credential_id = ?').get(credentialId) as
      | PasskeyRow
      | undefined;
  }

  async active(person: string): Promise<PasskeyRow[]> {
    return this.db
      .prepare('SELECT * FROM passkeys WHERE person = ? AND revoked_at IS NULL ORDER BY created_at, rowid')
      .all(person) as PasskeyRow[];
  }

  async activeNamed(person: string, name: string): Promise<PasskeyRow | undefined> {
    return this.db
      .prepare('SELECT * FROM passkeys WHERE person = ? AND name = ? AND revoked_at IS NULL')
      .get(person, name) as PasskeyRow | undefined;
  }

  async insert(row: Omit<PasskeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO passkeys (credential_id, person, name, public_key, counter, transports, created_at)
         VALUES (@credential_id, @person, @name, @public_key, @counter, @transports, @created_at)`,
      )
      .run(row);
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

  async insert(link: Omit<LinkRow, 'challenge' | 'used_at'>): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO passkey_links (digest, purpose, person, actor_json, approval_id, created_at, expires_at)
         VALUES (@digest, @purpose, @person, @actor_json, @approval_id, @created_at, @expires_at)`,
      )
      .run(link);
  }

  async find(digest: string, purpose: LinkPurpose): Promise<LinkRow | undefined> {
    return this.db
      .prepare('SELECT * FROM passkey_links WHERE digest = ? AND purpose = ?')
      .get(digest, purpose) as LinkRow | undefined;
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
