import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { cliActor } from '../../src/core/actors.js';
import { PAYOUT, PAYOUT_DEBIT, pending } from '../helpers/approvals.js';
import { runCliHere } from '../helpers/cli.js';
import { runtimeOptions, testConfig } from '../helpers/core.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

const available = await postgresAvailable();

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
  const replicas: Runtime[] = [];

  async function replica(name: string): Promise<Runtime> {
    const dir = mkdtempSync(join(tmpdir(), `bankops-${name}-`));
    dirs.push(dir);
    const policyPath = join(dir, 'policy.yaml');
    writeFileSync(policyPath, POLICY);
    const config = {
      ...testConfig(sandbox, { dbPath: join(dir, 'bankops.db'), policyPath }),
      databaseUrl: database.url(),
      fingerprintKeyFile: keyFile,
    };
    const runtime = await createRuntime(config, { ...runtimeOptions(), owner: `${name}:1` });
    replicas.push(runtime);
    return runtime;
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const keys = mkdtempSync(join(tmpdir(), 'bankops-key-'));
    dirs.push(keys);
    keyFile = join(keys, 'fingerprint.key');
    writeFileSync(keyFile, 'cd'.repeat(32), { mode: 0o600 });
  });
  afterAll(async () => {
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
});
