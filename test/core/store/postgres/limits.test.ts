import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../../../src/app/runtime.js';
import { cliActor } from '../../../../src/core/actors.js';
import { PAYOUT } from '../../../helpers/approvals.js';
import { runtimeOptions, testConfig } from '../../../helpers/core.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../../../helpers/postgres.js';
import { type RunningSandbox, startTestSandbox } from '../../../helpers/sandbox.js';

const available = await postgresAvailable();

// Every payout waits for one approver; one requester may ask for 50,000 USD a Berlin day.
const POLICY = `
roles: [viewer, operator, approver]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator, approver]
limits:
  zone: Europe/Berlin
  perRequester: { USD: 50000 }
rules:
  - tools: [create_payout]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - readOnly: true
    allow: [viewer, operator, approver]
`;

/** Two replicas (runtimes with pools of their own) on one PostgreSQL database. */
describe.skipIf(!available)('daily limits over two replicas on one PostgreSQL database', () => {
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
    keyFile = writeFingerprintKey(keys);
  });
  afterAll(async () => {
    for (const runtime of replicas) await runtime.close();
    await sandbox?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('admits exactly 5 of 20 concurrent requests of 10,000; a rejection makes room for one more', async () => {
    const [a, b] = [await replica('host-a'), await replica('host-b')];
    const operator = cliActor('operator');
    const ask = (runtime: Runtime, n: number) =>
      runtime.executor.execute({
        tool: 'create_payout',
        input: { ...PAYOUT, amount: 10_000, reference: `split ${n}` },
        actor: operator,
      });
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    let answers: Awaited<ReturnType<typeof ask>>[];
    let texts: string[];
    try {
      answers = await Promise.all(Array.from({ length: 20 }, (_, n) => ask(n % 2 === 0 ? a : b, n)));
      texts = sent.mock.calls.map(([text]) => (typeof text === 'string' ? text : ''));
    } finally {
      sent.mockRestore();
    }
    // Each admission counted in the round trip that began its transaction, none in one of its own.
    const sums = texts.filter((text) => text.includes('money_holds_count('));
    expect(sums).toHaveLength(20);
    for (const text of sums) expect(text).toMatch(/^BEGIN/);

    const admitted = answers.filter((x) => x.status === 'pending_approval');
    expect(admitted, JSON.stringify(answers)).toHaveLength(5);
    const refused = answers.filter((x) => x.status === 'denied');
    expect(refused).toHaveLength(15);
    expect(refused[0]).toMatchObject({
      reason: expect.stringContaining(
        'daily limit per requester 50,000.00 USD (Europe/Berlin day): 0.00 USD left',
      ),
    });
    // Both replicas took part in the admissions.
    expect(await b.approvals.list({ state: 'pending' })).toHaveLength(5);

    const first = admitted[0];
    if (first?.status !== 'pending_approval') throw new Error('no approval');
    expect(await a.executor.reject(first.approvalId, cliActor('approver'), 'duplicate')).toMatchObject({
      status: 'ok',
    });
    expect(await ask(b, 20)).toMatchObject({ status: 'pending_approval' });
    expect(await ask(a, 21)).toMatchObject({ status: 'denied' });
    await Promise.all([a.audit.flush(), b.audit.flush()]);
    const denials = (await a.audit.list({ limit: 200 })).filter((e) => e.decision === 'deny');
    expect(denials).toHaveLength(16);
  });
});
