import type pg from 'pg';
import type { CredentialStore, Passkey } from '../../../passkeys/credentials.js';
import type { Link, LinkPurpose, LinkStore } from '../../../passkeys/links.js';
import {
  LINK_INSERT_COLUMNS,
  type LinkRow,
  PASSKEY_INSERT_COLUMNS,
  type PasskeyRow,
  passkeyCodec,
} from '../../rows/passkeys.js';
import { pgJson } from '../json.js';

const codec = passkeyCodec(pgJson);
const VALUES = '($1, $2, $3, $4, $5, $6, $7)';
const LINK_VALUES = '($1, $2, $3, $4, $5, $6, $7, $8)';

/** Registered passkeys in PostgreSQL. */
export class PgCredentialStore implements CredentialStore {
  constructor(private readonly client: pg.ClientBase) {}

  async #all(sql: string, values: unknown[]): Promise<Passkey[]> {
    return (await this.client.query<PasskeyRow>(sql, values)).rows.map(codec.passkeyOf);
  }

  async byId(credentialId: string): Promise<Passkey | undefined> {
    return (await this.#all('SELECT * FROM passkeys WHERE credential_id = $1', [credentialId]))[0];
  }

  active(person: string): Promise<Passkey[]> {
    return this.#all(
      'SELECT * FROM passkeys WHERE person = $1 AND revoked_at IS NULL ORDER BY created_at, credential_id',
      [person],
    );
  }

  async activeNamed(person: string, name: string): Promise<Passkey | undefined> {
    return (
      await this.#all('SELECT * FROM passkeys WHERE person = $1 AND name = $2 AND revoked_at IS NULL', [
        person,
        name,
      ])
    )[0];
  }

  async insert(passkey: Omit<Passkey, 'lastUsedAt' | 'revokedAt'>): Promise<void> {
    await this.client.query(
      `INSERT INTO passkeys (${PASSKEY_INSERT_COLUMNS}) VALUES ${VALUES}`,
      codec.passkeyValues(passkey),
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

  async insert(link: Omit<Link, 'challenge' | 'usedAt'>): Promise<void> {
    await this.client.query(
      `INSERT INTO passkey_links (${LINK_INSERT_COLUMNS}) VALUES ${LINK_VALUES}`,
      codec.linkValues(link),
    );
  }

  async find(digest: string, purpose: LinkPurpose): Promise<Link | undefined> {
    const rows = await this.client.query<LinkRow>(
      'SELECT * FROM passkey_links WHERE digest = $1 AND purpose = $2',
      [digest, purpose],
    );
    const row = rows.rows[0];
    return row === undefined ? undefined : codec.linkOf(row);
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
