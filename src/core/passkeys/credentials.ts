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

/**
 * Registered passkeys (src/core/store/sqlite/passkeys.ts for SQLite); decisions are made by the
 * callers, inside their transactions.
 */
export interface CredentialStore {
  byId(credentialId: string): Promise<PasskeyRow | undefined>;
  /** A person's passkeys that are not revoked, oldest first. */
  active(person: string): Promise<PasskeyRow[]>;
  activeNamed(person: string, name: string): Promise<PasskeyRow | undefined>;
  insert(row: Omit<PasskeyRow, 'last_used_at' | 'revoked_at'>): Promise<void>;
  /** Moves the counter forward and notes the use; false when it was not strictly ahead (or both 0). */
  used(credentialId: string, counter: number, at: string): Promise<boolean>;
  revoke(credentialId: string, at: string): Promise<void>;
}
