import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../helpers/postgres.js';
import { remindersScenario } from '../helpers/reminders-scenario.js';

const available = await postgresAvailable();

/** Reminders and the morning digest, two replicas on one PostgreSQL database. */
describe.skipIf(!available)('reminders and the digest on PostgreSQL', () => {
  const database = useTestDatabase();
  const keys = mkdtempSync(join(tmpdir(), 'bankops-keys-'));
  const fingerprintKeyFile = writeFingerprintKey(keys);
  afterAll(() => rmSync(keys, { recursive: true, force: true }));
  remindersScenario({ database: () => ({ url: database.url(), fingerprintKeyFile }) });
});
