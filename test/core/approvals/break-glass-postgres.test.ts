import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/app/runtime.js';
import { cliActor } from '../../../src/core/actors.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { BREAK_GLASS_POLICY, BREAK_GLASS_STEP_UP_POLICY } from '../../helpers/break-glass.js';
import { manualClock } from '../../helpers/clock.js';
import { runtimeOptions, testConfig } from '../../helpers/core.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../../helpers/postgres.js';
import { type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';
import { SoftPasskey } from '../../helpers/soft-passkey.js';

const available = await postgresAvailable();

const ORIGIN = 'http://localhost:4996';

/**
 * Break-glass on one replica, its review closed on another, on one PostgreSQL database; under
 * `breakGlass.stepUp: passkey`, the link handed out by one replica is confirmed on the other.
 */
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
    writeFileSync(join(dir, 'step-up.yaml'), BREAK_GLASS_STEP_UP_POLICY);
    const keyFile = writeFingerprintKey(dir);
    for (const [owner, policy] of [
      ['host-a:1', 'policy.yaml'],
      ['host-b:2', 'policy.yaml'],
      ['host-c:3', 'step-up.yaml'],
      ['host-d:4', 'step-up.yaml'],
    ] as const)
      replicas.push(
        await createRuntime(
          {
            ...testConfig(
              sandbox,
              { dbPath: join(dir, `${owner}.db`), policyPath: join(dir, policy) },
              { publicUrl: ORIGIN },
            ),
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

  it('confirms with a passkey on one replica a break-glass whose link another handed out', async () => {
    const [, , c, d] = replicas as [Runtime, Runtime, Runtime, Runtime];
    const ada = cliActor('ada');
    const key = new SoftPasskey(ORIGIN);
    const enrol = (await c.passkeys.enrolLink('cli:ada', cliActor('admin'))).url.split('/').at(-1) ?? '';
    const options = (await d.passkeys.enrolOptions(enrol)) as { challenge: string };
    await d.passkeys.enrolFinish(enrol, 'laptop', key.register(options));

    const asked = pending(
      await c.executor.execute({
        tool: 'create_payout',
        input: { ...PAYOUT, amount: 800 },
        actor: cliActor('olga'),
      }),
    );
    const bare = await d.executor.breakGlass.breakGlass(asked.id, ada, 'approvers unreachable');
    expect(bare.status === 'refused' ? bare.reason : '').toContain('needs a passkey confirmation');
    const token =
      (await c.passkeys.breakGlassLink(asked.id, ada, 'approvers unreachable')).url.split('/').at(-1) ?? '';
    const signed = key.sign((await d.passkeys.breakGlassOptions(token, 1)) as { challenge: string });
    expect(await d.passkeys.breakGlassFinish(token, signed)).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded' },
    });
    // The counter moved with it, in PostgreSQL: every replica sees the passkey used.
    expect((await c.passkeys.list('cli:ada'))[0]?.lastUsedAt).toBeDefined();
    expect(await c.executor.breakGlass.reviews(asked.id)).toMatchObject([
      { person: 'cli:ada', reason: 'approvers unreachable' },
    ]);
    const entry = (await c.audit.list({ approvalId: asked.id, limit: 100 })).find(
      (e) => e.decision === 'break_glass',
    );
    expect(entry?.evidence).toMatchObject({
      credentialId: key.id,
      signed: { breakGlass: { reason: 'approvers unreachable' } },
    });
    // The link handed out is on record before it ran, in the same chain.
    const decisions = (await c.audit.list({ approvalId: asked.id, limit: 100 })).map((e) => e.decision);
    expect(decisions.indexOf('break_glass_asked')).toBeGreaterThan(-1);
    expect(decisions.indexOf('break_glass_asked')).toBeLessThan(decisions.indexOf('break_glass'));
    // A listing reads the reviews of its approvals in one statement, on any replica.
    const listed = (await d.executor.listApprovals({ limit: 500 })).find((v) => v.id === asked.id);
    expect(listed?.breakGlassSummary).toMatch(/^cli:ada at \S+: approvers unreachable; review open$/);
    // The link was spent on the other replica.
    await expect(c.passkeys.breakGlassPage(token)).rejects.toThrow('already used');
  });
});
