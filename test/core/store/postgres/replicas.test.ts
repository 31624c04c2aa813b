import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../../src/app/runtime.js';
import { cliActor } from '../../../../src/core/actors.js';
import type { Clock } from '../../../../src/core/clock.js';
import { optional } from '../../../../src/core/optional.js';
import {
  type Child,
  PAYOUT,
  PAYOUT_DEBIT,
  pending,
  slowDown,
  startChild,
  until,
} from '../../../helpers/approvals.js';
import { runCliHere } from '../../../helpers/cli.js';
import { manualClock } from '../../../helpers/clock.js';
import { runtimeOptions, testConfig } from '../../../helpers/core.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../../../helpers/postgres.js';
import { type RunningSandbox, startTestSandbox } from '../../../helpers/sandbox.js';

const available = await postgresAvailable();
const PAYOUTS = '/svc/banking/api/v1/payouts';

// Two approvers, so each replica records one vote.
const POLICY = `
roles: [viewer, operator, approver]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator, approver]
rules:
  - tools: [create_payout]
    allow: [operator]
    approval: { approvers: 2, role: approver }
  - readOnly: true
    allow: [viewer, operator, approver]
`;

/** Two replicas (runtimes with data directories of their own) on one PostgreSQL database. */
describe.skipIf(!available)('two replicas on one PostgreSQL database', () => {
  const database = useTestDatabase();
  let sandbox: RunningSandbox;
  let keyFile: string;
  const dirs: string[] = [];
  let child: Child | undefined;
  const replicas: Runtime[] = [];

  async function replica(name: string, clock?: Clock): Promise<Runtime> {
    const dir = mkdtempSync(join(tmpdir(), `bankops-${name}-`));
    dirs.push(dir);
    const policyPath = join(dir, 'policy.yaml');
    writeFileSync(policyPath, POLICY);
    const config = {
      ...testConfig(sandbox, { dbPath: join(dir, 'bankops.db'), policyPath }),
      databaseUrl: database.url(),
      fingerprintKeyFile: keyFile,
    };
    const runtime = await createRuntime(config, {
      ...runtimeOptions(optional('clock', clock)),
      owner: `${name}:1`,
    });
    replicas.push(runtime);
    return runtime;
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const keys = mkdtempSync(join(tmpdir(), 'bankops-key-'));
    dirs.push(keys);
    keyFile = writeFingerprintKey(keys);
  });
  afterAll(async () => {
    await child?.kill();
    for (const runtime of replicas) await runtime.close();
    await sandbox?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('opens a payout on one, takes a vote on each, pays once, and keeps one verified audit chain', async () => {
    const [a, b] = [await replica('host-a'), await replica('host-b')];
    const before = await a.client.accounts.balances({ companyCode: sandbox.credentials.companyId });
    const usd = (balances: typeof before) =>
      balances.balances.find((x) => x.currency === 'USD')?.availableBalance;

    const opened = pending(
      await a.executor.execute({ tool: 'create_payout', input: PAYOUT, actor: cliActor('operator') }),
    );
    // The other replica sees it at once: one database.
    expect(await b.approvals.get(opened.id)).toMatchObject({ state: 'pending' });

    const first = await b.executor.approve(opened.id, cliActor('approver'));
    expect(first).toMatchObject({ status: 'ok', approval: { state: 'pending' } });
    const second = await a.executor.approve(opened.id, cliActor('approver2'));
    expect(second).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });

    expect(sandbox.stats()['payouts.create']).toBe(1);
    const after = await b.client.accounts.balances({ companyCode: sandbox.credentials.companyId });
    expect((usd(before) ?? 0) - (usd(after) ?? 0)).toBe(PAYOUT_DEBIT);
    const seen = await b.approvals.get(opened.id);
    expect(seen).toMatchObject({ state: 'succeeded' });
    expect(seen?.approvals.map((vote) => vote.person).sort()).toEqual(['cli:approver', 'cli:approver2']);

    // Both replicas' entries are in one chain; each replica's audit log sees them all.
    await Promise.all([a.audit.flush(), b.audit.flush()]);
    const entries = await b.audit.list({ approvalId: opened.id, limit: 100 });
    expect(entries.filter((e) => e.event === 'executing')).toHaveLength(1);
    expect(await a.audit.verify()).toMatchObject({ ok: true });

    const verify = await runCliHere(['audit', 'verify'], { BANKOPS_DATABASE_URL: database.url() });
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^audit log intact: \d+ entries\n/);
  });

  it('finishes a payout whose replica process was killed mid-payout, once its lease ran out: one payout', async () => {
    const clock = manualClock();
    const a = await replica('host-a2', clock);
    const dir = dirs.at(-1) ?? '';
    const usd = async () =>
      (await a.client.accounts.balances({ companyCode: sandbox.credentials.companyId })).balances.find(
        (x) => x.currency === 'USD',
      )?.availableBalance ?? 0;
    const creates = () => sandbox.stats()['payouts.create'] ?? 0;
    const [balance, created] = [await usd(), creates()];
    const opened = pending(
      await a.executor.execute({ tool: 'create_payout', input: PAYOUT, actor: cliActor('operator') }),
    );
    await a.executor.approve(opened.id, cliActor('approver'));

    // The payout request reaches the sandbox, which answers after 2 s: the kill lands in between.
    await slowDown({ sandbox }, PAYOUTS, 2000);
    child = await startChild(
      { dbPath: join(dir, 'child.db'), sandbox },
      {
        policyFile: join(dir, 'policy.yaml'),
        owner: 'host-b:4242',
        env: { APPROVAL_CHILD_DATABASE_URL: database.url(), APPROVAL_CHILD_KEY_FILE: keyFile },
      },
    );
    child.send({ cmd: 'approve', id: opened.id, as: 'approver2' });
    await until(() => creates() === created + 1, 'the payout request to reach the sandbox');
    await child.kill();
    await until(async () => (await usd()) === balance - PAYOUT_DEBIT, 'the first payout to land');
    expect(await a.approvals.get(opened.id)).toMatchObject({ state: 'executing' });

    // The dead replica's lease (30 s) still holds; once run out, the survivor takes over.
    expect(await a.executor.recover()).toBe(0);
    clock.set(new Date(Date.now() + 31_000));
    expect(await a.executor.recover()).toBe(1);
    expect(await a.approvals.get(opened.id)).toMatchObject({
      state: 'succeeded',
      requestId: `${opened.id}-1`,
    });
    // Sent twice with the same request id: the service replayed the first answer, paid once.
    expect(creates()).toBe(created + 2);
    expect(await usd()).toBe(balance - PAYOUT_DEBIT);
    await a.audit.flush();
    expect(await a.audit.verify()).toMatchObject({ ok: true });
  });
});
