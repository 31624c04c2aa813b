import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/app/runtime.js';
import { manualClock } from '../../helpers/clock.js';
import { runtimeOptions, testConfig } from '../../helpers/core.js';
import { resendTakeover } from '../../helpers/resend-window.js';
import { type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

/**
 * The re-send window across replicas on one SQLite file: the replica that executes an approval holds
 * its lease while it re-sends in the background; stopped, it lets the approval go, and another
 * replica takes it over in the same window (not a new one), and the service pays once.
 * (PostgreSQL: postgres-resend-window.test.ts.)
 */

const clock = manualClock();
let sandbox: RunningSandbox;
let dir: string;
const replicas: Runtime[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'bankops-window-'));
});
afterAll(async () => {
  for (const runtime of replicas) await runtime.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function replica(owner: string): Promise<Runtime> {
  const runtime = await createRuntime(
    testConfig(sandbox, { dbPath: join(dir, 'bankops.db') }),
    runtimeOptions({ clock, background: true, owner }),
  );
  replicas.push(runtime);
  return runtime;
}

describe('an approval re-sent in the background, on SQLite', () => {
  it('is held by one replica, let go when it stops, and finished by another in the same window, paid once', async () => {
    await resendTakeover(await replica('host-a:1'), await replica('host-b:2'), sandbox, clock);
  });
});
