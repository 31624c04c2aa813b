import { createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { messageOf, notConfigured } from '../core/errors.js';
import type { KeyChecks } from '../core/store/key-checks.js';

/** 32 bytes, as `openssl rand -hex 32` writes them. */
const KEY_BYTES = 32;
const MAKE_ONE = `make one with \`umask 077; openssl rand -hex ${KEY_BYTES} > FILE\``;

/**
 * The key an operator made (`BANKOPS_FINGERPRINT_KEY_FILE`), shared by every process on the
 * database and never stored in it: at least 32 bytes written as hex, in a file others cannot read.
 * Its content never appears in an error.
 */
export function readFingerprintKeyFile(file: string): Buffer {
  const named = `BANKOPS_FINGERPRINT_KEY_FILE ${file}`;
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
    throw notConfigured(
      missing ? `${named} does not exist; ${MAKE_ONE}` : `${named} cannot be read: ${messageOf(error)}`,
      error,
    );
  }
  if ((mode & 0o007) !== 0) {
    throw notConfigured(
      `${named} is open to every user of this machine (mode ${(mode & 0o777).toString(8)}); chmod 600 it`,
    );
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw notConfigured(`${named} cannot be read: ${messageOf(error)}`, error);
  }
  const key = /^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex') : undefined;
  if (key === undefined || key.length < KEY_BYTES) {
    throw notConfigured(`${named} must hold at least ${KEY_BYTES * 2} hex characters; ${MAKE_ONE}`);
  }
  return key;
}

/** `bankops.db` → `bankops.key`, beside it. */
export const fingerprintKeyPath = (databasePath: string): string =>
  databasePath.endsWith('.db') ? `${databasePath.slice(0, -3)}.key` : `${databasePath}.key`;

/**
 * The install's key for fingerprints of inputs that hold a secret: the operator's key file when
 * one is configured (replicas share it); else 32 random bytes in a file beside the database (mode
 * 0600), never in it, so a copy of `bankops.db` alone gives no secret away. Made at the first
 * start; every process on the database reads the same one (linked into place, so two processes
 * starting at once agree). An in-memory database gets a key of its own process.
 */
export function fingerprintKey(databasePath: string, keyFile?: string): Buffer {
  if (keyFile !== undefined) return readFingerprintKeyFile(keyFile);
  if (databasePath === ':memory:') return randomBytes(KEY_BYTES);
  const file = fingerprintKeyPath(databasePath);
  // Read when it is there (every start but the first): nothing written.
  const text = readIfThere(file) ?? madeKeyFile(file);
  const key = Buffer.from(text.trim(), 'hex');
  if (key.length !== KEY_BYTES)
    throw notConfigured(`${file}: not a bankops key (64 hex characters); move it away to make a new one`);
  return key;
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Makes the key file at the first start (or finds that another process just made it); its text. */
function madeKeyFile(file: string): string {
  // Written whole under another name, then linked into place: another process never reads a file
  // half written, and the first link wins.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  // On a new machine the data directory does not exist yet: made private, as the database's is.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(draft, randomBytes(KEY_BYTES).toString('hex'), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  } finally {
    unlinkSync(draft);
  }
  return readFileSync(file, 'utf8');
}

/** The name the fingerprint key's check value is kept under in the database. */
export const FINGERPRINT_KEY_CHECK = 'fingerprint-key';

/** The key's check value: an HMAC of a fixed label under it, which tells keys apart and reveals none. */
export const fingerprintKeyCheck = (key: Buffer): string =>
  createHmac('sha256', key).update('bankops fingerprint key check 1').digest('hex');

/** Where a process's key comes from, for the line that refuses it. */
export const fingerprintKeyWords = (databasePath: string, keyFile?: string): string =>
  keyFile === undefined
    ? `the fingerprint key ${fingerprintKeyPath(databasePath)} (BANKOPS_FINGERPRINT_KEY_FILE unset)`
    : `BANKOPS_FINGERPRINT_KEY_FILE ${keyFile}`;

/**
 * Refuses a key that is not the one the database's other processes use: the first process records
 * its key's check value; a later one with another key would write fingerprints the others cannot
 * match, so it does not start (one line, naming the file, never the key).
 */
export async function requireSharedKey(checks: KeyChecks, key: Buffer, words: string): Promise<void> {
  const mine = fingerprintKeyCheck(key);
  const recorded = await checks.claim(FINGERPRINT_KEY_CHECK, mine);
  if (recorded !== mine)
    throw notConfigured(
      `${words} is not the key the other processes on this database use (its check value differs): give every replica the same file, or rotate the key on purpose with \`bankops db fingerprint-key --adopt\` (docs/deploy.md)`,
    );
}
