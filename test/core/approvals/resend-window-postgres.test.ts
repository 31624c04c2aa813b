import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/app/runtime.js';
import { manualClock } from '../../helpers/clock.js';
import { runtimeOptions, testConfig } from '../../helpers/core.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../../helpers/postgres.js';
import { resendTakeover } from '../../helpers/resend-window.js';
import { type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

const available = await postgresAvailable();

/** The re-send window across two replicas on one PostgreSQL database (SQLite: resend-window.test.ts). */
describe.skipIf(!available)('an approval re-sent in the background, on PostgreSQL', () => {
  const database = useTestDatabase();
  const clock = manualClock();
  let sandbox: RunningSandbox;
  const dirs: string[] = [];
  let keyFile: string;
  const replicas: Runtime[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const keys = mkdtempSync(join(tmpdir(), 'bankops-key-'));
    dirs.push(keys);
    keyFile = writeFingerprintKey(keys);
  });
  afterAll(async () => {
    for (const runtime of replicas) await runtime.close();
    await sandbox?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function replica(owner: string): Promise<Runtime> {
    const dir = mkdtempSync(join(tmpdir(), 'bankops-window-'));
    dirs.push(dir);
    const runtime = await createRuntime(
      {
        ...testConfig(sandbox, { dbPath: join(dir, 'bankops.db') }),
        databaseUrl: database.url(),
        fingerprintKeyFile: keyFile,
      },
      runtimeOptions({ clock, background: true, owner }),
    );
    replicas.push(runtime);
    return runtime;
  }

  it('is held by one replica, let go when it stops, and finished by another in the same window, paid once', async () => {
    await resendTakeover(await replica('host-a:1'), await replica('host-b:2'), sandbox, clock);
  });
});
