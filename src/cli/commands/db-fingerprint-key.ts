import { missingFingerprintKey, openBackend } from '../../app/database.js';
import {
  FINGERPRINT_KEY_CHECK,
  fingerprintKey,
  fingerprintKeyCheck,
  fingerprintKeyWords,
} from '../../app/fingerprint-key.js';
import { notConfigured } from '../../core/errors.js';
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
