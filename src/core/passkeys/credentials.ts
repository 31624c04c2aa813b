import type { Db } from '../db.js';

export interface PasskeyRow {
  credential_id: string;
  person: string;
  name: string;
  public_key: string;
  counter: number;
  transports: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A passkey as people see it in lists. */
export interface PasskeyInfo {
  name: string;
  credentialId: string;
  createdAt: string;
  lastUsedAt?: string;
}

export const infoOf = (row: PasskeyRow): PasskeyInfo => ({
  name: row.name,
  credentialId: row.credential_id,
  createdAt: row.created_at,
  ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }),
});

/** The SQL of registered passkeys; decisions are made by the callers, inside their transactions. */
export class CredentialStore {
  constructor(private readonly db: Db) {}

  byId(credentialId: string): PasskeyRow | undefined {
    return this.db.prepare('SELECT * FROM passkeys WHERE credential_id = ?').get(credentialId) as
      | PasskeyRow
      | undefined;
  }

  /** A person's passkeys that are not revoked, oldest first. */
  active(person: string): PasskeyRow[] {
    return this.db
      .prepare('SELECT * FROM passkeys WHERE person = ? AND revoked_at IS NULL ORDER BY created_at, rowid')
      .all(person) as PasskeyRow[];
  }

  activeNamed(person: string, name: string): PasskeyRow | undefined {
    return this.db
      .prepare('SELECT * FROM passkeys WHERE person = ? AND name = ? AND revoked_at IS NULL')
      .get(person, name) as PasskeyRow | undefined;
  }

  insert(row: Omit<PasskeyRow, 'last_used_at' | 'revoked_at'>): void {
    this.db
      .prepare(
        `INSERT INTO passkeys (credential_id, person, name, public_key, counter, transports, created_at)
         VALUES (@credential_id, @person, @name, @public_key, @counter, @transports, @created_at)`,
      )
      .run(row);
  }

  /** Moves the counter forward and notes the use; false when it was not strictly ahead (or both 0). */
  used(credentialId: string, counter: number, at: string): boolean {
    const result = this.db
      .prepare(
        `UPDATE passkeys SET counter = @counter, last_used_at = @at
         WHERE credential_id = @id AND revoked_at IS NULL AND (@counter > counter OR (@counter = 0 AND counter = 0))`,
      )
      .run({ id: credentialId, counter, at });
    return result.changes === 1;
  }

  revoke(credentialId: string, at: string): void {
    this.db.prepare('UPDATE passkeys SET revoked_at = ? WHERE credential_id = ?').run(at, credentialId);
  }
}
