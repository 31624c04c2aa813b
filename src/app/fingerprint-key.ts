import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { notConfigured } from '../core/errors.js';

/** `bankops.db` → `bankops.key`, beside it. */
export const fingerprintKeyPath = (databasePath: string): string =>
  databasePath.endsWith('.db') ? `${databasePath.slice(0, -3)}.key` : `${databasePath}.key`;

/**
 * The install's key for fingerprints of inputs that hold a secret: 32 random bytes in a file beside
 * the database (mode 0600), never in it, so a copy of `bankops.db` alone gives no secret away. Made
 * at the first start; every process on the database reads the same one (linked into place, so
 * two processes starting at once agree). An in-memory database gets a key of its own process.
 */
export function fingerprintKey(databasePath: string): Buffer {
  if (databasePath === ':memory:') return randomBytes(32);
  const file = fingerprintKeyPath(databasePath);
  // Written whole under another name, then linked into place: another process never reads a file
  // half written, and the first link wins.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  } finally {
    unlinkSync(draft);
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length !== 32)
    throw notConfigured(`${file}: not a bankops key (64 hex characters); move it away to make a new one`);
  return key;
}
