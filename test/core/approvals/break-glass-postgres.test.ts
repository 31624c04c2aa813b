import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/app/runtime.js';
import { cliActor } from '../../../src/core/actors.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { BREAK_GLASS_POLICY } from '../../helpers/break-glass.js';
import { manualClock } from '../../helpers/clock.js';
import { runtimeOptions, testConfig } from '../../helpers/core.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../../helpers/postgres.js';
import { type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

const available = await postgresAvailable();

/** Break-glass on one replica, its review closed on another, on one PostgreSQL database. */
describe.skipIf(!available)('break-glass on PostgreSQL', () => {
  const database = useTestDatabase();
  const clock = manualClock('2026-11-20T09:00:00.000Z');
  let sandbox: RunningSandbox;
  let dir: string;
  const replicas: Runtime[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), 'bankops-break-glass-'));
    writeFileSync(join(dir, 'policy.yaml'), BREAK_GLASS_POLICY);
    const keyFile = writeFingerprintKey(dir);
    for (const owner of ['host-a:1', 'host-b:2'])
      replicas.push(
        await createRuntime(
          {
            ...testConfig(sandbox, {
              dbPath: join(dir, `${owner}.db`),
              policyPath: join(dir, 'policy.yaml'),
            }),
            databaseUrl: database.url(),
            fingerprintKeyFile: keyFile,
          },
          runtimeOptions({ clock, owner }),
        ),
      );
  });
  afterAll(async () => {
    for (const runtime of replicas) await runtime.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the payout on one replica; the other sees the review open until two others close it', async () => {
    const [a, b] = replicas as [Runtime, Runtime];
    const asked = pending(
      await a.executor.execute({ tool: 'create_payout', input: { ...PAYOUT }, actor: cliActor('olga') }),
    );
    const ran = await a.executor.breakGlass.breakGlass(asked.id, cliActor('ada'), 'approvers unreachable');
    expect(ran).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    expect(await b.executor.breakGlass.reviews()).toMatchObject([{ approvalId: asked.id, closers: [] }]);
    expect(await b.executor.breakGlass.closeReview(asked.id, cliActor('ada'), 'mine')).toMatchObject({
      status: 'refused',
    });
    expect(await b.executor.breakGlass.closeReview(asked.id, cliActor('bob'), 'checked')).toMatchObject({
      status: 'ok',
    });
    expect(await a.executor.breakGlass.reviews()).toHaveLength(1);
    await a.executor.breakGlass.closeReview(asked.id, cliActor('cy'), 'fine');
    expect(await b.executor.breakGlass.reviews()).toEqual([]);
    const [closed] = await b.executor.breakGlass.reviews(asked.id);
    expect(closed?.closers.map((c) => c.person)).toEqual(['cli:bob', 'cli:cy']);
    expect(closed?.closedAt).toBeDefined();
  });
});
