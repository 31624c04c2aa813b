import { createHash } from 'node:crypto';
import { missingFingerprintKey, openBackend } from '../../app/database.js';
import {
  FINGERPRINT_KEY_CHECK,
  fingerprintKey,
  fingerprintKeyCheck,
  fingerprintKeyWords,
} from '../../app/fingerprint-key.js';
import { cliActor } from '../../core/actors.js';
import { AuditLog } from '../../core/audit/index.js';
import { notConfigured } from '../../core/errors.js';
import type { Actor } from '../../core/policy/types.js';
import type { Storage } from '../../core/store/index.js';
import { cliConfig } from '../config.js';
import { EXIT, out, UsageError } from '../io.js';
import { refusalsExitOne } from './db-target.js';

/**
 * `bankops db fingerprint-key --adopt`: records the configured key's check value as the one every
 * process on the database must hold (a rotation on purpose). Never prints the key or its check.
 */
export async function dbFingerprintKey(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0] !== '--adopt')
    throw new UsageError(
      'db fingerprint-key takes --adopt: it makes the configured key the one every process must use',
    );
  return refusalsExitOne(async () => {
    const config = cliConfig();
    const missing = missingFingerprintKey(config);
    if (missing !== undefined) throw notConfigured(missing);
    const key = fingerprintKey(config.databasePath, config.fingerprintKeyFile);
    const words = fingerprintKeyWords(config.databasePath, config.fingerprintKeyFile);
    const backend = await openBackend(config);
    try {
      const mine = fingerprintKeyCheck(key);
      const before = await backend.keyChecks.replace(FINGERPRINT_KEY_CHECK, mine);
      await auditAdoption(backend.storage, cliActor(config.cliActor, config.osUser), before, mine);
      const was =
        before === undefined
          ? 'none was recorded'
          : before === mine
            ? 'it already was'
            : 'it replaced another: start every process with this key; requests made before are no longer recognised as repeats';
      out(`${backend.where}: ${words} is the fingerprint key every process must use (${was})\n`);
      return EXIT.ok;
    } finally {
      await backend.close();
    }
  });
}

/** A check value's short fingerprint for the audit log: tells two keys apart, reveals neither. */
const shortFingerprint = (check: string): string =>
  createHash('sha256').update(check).digest('hex').slice(0, 16);

/**
 * The rotation on record: who adopted a key, when (the entry's time), and the fingerprints of the
 * check values before and after (never the key, nor the check value itself).
 */
async function auditAdoption(
  storage: Storage,
  actor: Actor,
  before: string | undefined,
  after: string,
): Promise<void> {
  const audit = new AuditLog(storage);
  try {
    await audit.append({
      actor: actor.id,
      frontEnd: 'cli',
      tool: 'db_fingerprint_key',
      input: {
        adopt: true,
        before: before === undefined ? null : shortFingerprint(before),
        after: shortFingerprint(after),
        replaced: before !== undefined && before !== after,
      },
      decision: 'allow',
      event: 'requested',
      outcome: 'ok',
    });
  } finally {
    await audit.close();
  }
}
