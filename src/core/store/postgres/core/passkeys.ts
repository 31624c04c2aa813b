import type pg from 'pg';
import type { CredentialStore, PasskeyRow } from '../../../passkeys/credentials.js';
import type { LinkPurpose, LinkRow, LinkStore } from '../../../passkeys/links.js';

/** Registered passkeys in PostgreSQL. */
export class PgCredentialStore implements CredentialStore {
  constructor(private readonly client: pg.ClientBase) {}

  async byId(credentialId: string): Promise<PasskeyRow | undefined> {
    return (
      await this.client.query<PasskeyRow>('SELECT * FROM passkeys WHERE credential_id = $1', [credentialId])
    ).rows[0];
  }

  async active(person: string): Promise<PasskeyRow[]> {
    const rows = await this.client.query<PasskeyRow>(
      'SELECT * FROM passkeys WHERE person = $1 AND revoked_at IS NULL ORDER BY created_at, credential_id',
      [person],
    );
    return rows.rows;
  }

  async activeNamed(person: string, name: string): Promise<PasskeyRow | undefined> {
    const rows = await this.client.query<PasskeyRow>(
      'SELECT * FROM passkeys WHERE person = $1 AND name = $2 AND revoked_at IS NULL',
      [person, name],
    );
    return rows.rows[0];
  }

  async insert(row: Omit<PasskeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
    await this.client.query(
      `INSERT INTO passkeys (credential_id, person, name, public_key, counter, transports, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.credential_id, row.person, row.name, row.public_key, row.counter, row.transports, row.created_at],
    );
  }

  async used(credentialId: string, counter: number, at: string): Promise<boolean> {
    const result = await this.client.query(
      `UPDATE passkeys SET counter = $2, last_used_at = $3
       WHERE credential_id = $1 AND revoked_at IS NULL AND ($2 > counter OR ($2 = 0 AND counter = 0))`,
      [credentialId, counter, at],
    );
    return result.rowCount === 1;
  }

  async revoke(credentialId: string, at: string): Promise<void> {
    await this.client.query('UPDATE passkeys SET revoked_at = $2 WHERE credential_id = $1', [
      credentialId,
      at,
    ]);
  }
}

/** One-time links in PostgreSQL. */
export class PgLinkStore implements LinkStore {
  constructor(private readonly client: pg.ClientBase) {}

  async insert(link: Omit<LinkRow, 'challenge' | 'used_at'>): Promise<void> {
    await this.client.query(
      `INSERT INTO passkey_links (digest, purpose, person, actor_json, approval_id, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        link.digest,
        link.purpose,
        link.person,
        link.actor_json,
        link.approval_id,
        link.created_at,
        link.expires_at,
      ],
    );
  }

  async find(digest: string, purpose: LinkPurpose): Promise<LinkRow | undefined> {
    const rows = await this.client.query<LinkRow>(
      'SELECT * FROM passkey_links WHERE digest = $1 AND purpose = $2',
      [digest, purpose],
    );
    return rows.rows[0];
  }

  async setChallenge(digest: string, challenge: string): Promise<void> {
    await this.client.query('UPDATE passkey_links SET challenge = $2 WHERE digest = $1 AND used_at IS NULL', [
      digest,
      challenge,
    ]);
  }

  async claim(digest: string, at: string): Promise<boolean> {
    const result = await this.client.query(
      'UPDATE passkey_links SET used_at = $2 WHERE digest = $1 AND used_at IS NULL',
      [digest, at],
    );
    return result.rowCount === 1;
  }

  async prune(before: string): Promise<void> {
    await this.client.query('DELETE FROM passkey_links WHERE expires_at < $1', [before]);
  }
}
