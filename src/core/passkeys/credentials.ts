import { z } from 'zod';

/** A registered passkey: its public key and signature counter, and the person it belongs to. */
export const PasskeySchema = z.object({
  /** base64url, as WebAuthn gives it. */
  credentialId: z.string(),
  person: z.string(),
  /** The person's name for it (`laptop`), unique among their active passkeys. */
  name: z.string(),
  /** The COSE public key, base64url. */
  publicKey: z.string(),
  counter: z.number().int(),
  /** How the browser may reach it (`internal`, `usb`, …), as the authenticator said at enrolment. */
  transports: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

/** A passkey as people see it in lists. */
export interface PasskeyInfo {
  name: string;
  credentialId: string;
  createdAt: string;
  lastUsedAt?: string;
}

export const infoOf = (passkey: Passkey): PasskeyInfo => ({
  name: passkey.name,
  credentialId: passkey.credentialId,
  createdAt: passkey.createdAt,
  ...(passkey.lastUsedAt === null ? {} : { lastUsedAt: passkey.lastUsedAt }),
});

/**
 * Registered passkeys (src/core/store/sqlite/passkeys.ts for SQLite); decisions are made by the
 * callers, inside their transactions.
 */
export interface CredentialStore {
  byId(credentialId: string): Promise<Passkey | undefined>;
  /** A person's passkeys that are not revoked, oldest first. */
  active(person: string): Promise<Passkey[]>;
  activeNamed(person: string, name: string): Promise<Passkey | undefined>;
  insert(passkey: Omit<Passkey, 'lastUsedAt' | 'revokedAt'>): Promise<void>;
  /** Moves the counter forward and notes the use; false when it was not strictly ahead (or both 0). */
  used(credentialId: string, counter: number, at: string): Promise<boolean>;
  revoke(credentialId: string, at: string): Promise<void>;
}
