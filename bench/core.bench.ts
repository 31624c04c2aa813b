// Executor overhead over a direct client call, and concurrent approvals, against the sandbox on
// loopback. Figures are ratios against a baseline measured in the same run (the machines are noisy).
// Run: npm run bench
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliActor } from '../src/core/actors.js';
import { ApprovalEngine } from '../src/core/approvals/index.js';
import { AuditLog } from '../src/core/audit/index.js';
import { createServiceClient } from '../src/core/client/index.js';
import { openDatabase } from '../src/core/db.js';
import { Executor } from '../src/core/executor.js';
import { PolicyStore } from '../src/core/policy/index.js';
import { SANDBOX_DEFAULTS, startSandbox } from '../src/sandbox/index.js';
import { createRegistry } from '../src/tools/index.js';

const ROUNDS = 5;
const CALLS = Number(process.argv[2] ?? 200);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function timeIt(fn: () => Promise<unknown>, n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i += 1) await fn();
  return (performance.now() - started) / n;
}

const dir = mkdtempSync(join(tmpdir(), 'bankops-bench-'));
const sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS } });
const c = sandbox.credentials;
const client = createServiceClient({
  baseUrl: sandbox.url,
  apiKey: c.apiKey,
  productId: c.productId,
  userId: c.userId,
  companyId: c.companyId,
});
const db = openDatabase(join(dir, 'bench.db'));
const audit = new AuditLog(db);
const policy = PolicyStore.load();
const registry = createRegistry();
const defaults = {
  companyCode: c.companyId,
  programCode: c.programCode,
  agentCode: c.agentCode,
  subagentCode: c.subagentCode,
};
const approvals = new ApprovalEngine({
  db,
  audit,
  policy,
  registry,
  client,
  defaults,
  ttlSeconds: 3600,
  tolerancePercent: 0.5,
});
const executor = new Executor({ db, registry, policy, audit, client, defaults, approvals });
const operator = cliActor('bench-operator');

try {
  // 1. A read: the client alone, then the same read through the executor (validation, policy,
  //    two audit appends with fsync). Interleaved rounds so both see the same machine.
  const direct: number[] = [];
  const viaExecutor: number[] = [];
  await client.accounts.balances({ companyCode: c.companyId });
  for (let round = 0; round < ROUNDS; round += 1) {
    direct.push(await timeIt(() => client.accounts.balances({ companyCode: c.companyId }), CALLS));
    viaExecutor.push(
      await timeIt(() => executor.execute({ tool: 'get_balances', input: {}, actor: operator }), CALLS),
    );
  }
  const d = median(direct);
  const e = median(viaExecutor);
  console.log(
    `read get_balances: direct client ${d.toFixed(3)} ms/call, executor ${e.toFixed(3)} ms/call, ` +
      `ratio ${(e / d).toFixed(2)}x (median of ${ROUNDS} rounds of ${CALLS})`,
  );

  // 2. Money movement: a direct quote + payout against the whole approval path (request, 50
  //    approvers at once, fresh quote, payout), exactly one payout each time.
  const payout = {
    beneficiaryId: 'ben_de_swift_0001',
    sourceAccountId: 'acc_usd_0001',
    sourceAssetCode: 'USD',
    destinationAssetCode: 'EUR',
    destinationRail: 'SWIFT',
    amount: 10,
    side: 'SOURCE',
    purposeCode: 'GOODS_PURCHASED',
  } as const;
  const directPayout: number[] = [];
  const approved: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    let started = performance.now();
    const quote = await client.payouts.quote({ ...payout, companyCode: c.companyId });
    await client.payouts.create({
      companyCode: c.companyId,
      quoteId: quote.quoteId,
      purposeCode: payout.purposeCode,
    });
    directPayout.push(performance.now() - started);

    started = performance.now();
    const opened = await executor.execute({
      tool: 'create_payout',
      input: { ...payout, amount: 10 + round },
      actor: operator,
    });
    if (opened.status !== 'pending_approval')
      throw new Error(`expected pending_approval, got ${opened.status}`);
    const votes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        executor.approve(opened.approvalId, cliActor(`bench-approver-${round}-${i}`)),
      ),
    );
    approved.push(performance.now() - started);
    const executed = votes.filter((v) => v.status === 'ok' && v.approval.state === 'succeeded').length;
    if (executed < 1) throw new Error('the approval did not execute');
  }
  const dp = median(directPayout);
  const ap = median(approved);
  console.log(
    `payout: direct quote+create ${dp.toFixed(1)} ms, request + 50 concurrent approvals + execution ` +
      `${ap.toFixed(1)} ms, ratio ${(ap / dp).toFixed(1)}x (median of ${ROUNDS}); payouts created through ` +
      `approvals: ${approvals.list({ state: 'succeeded' }).length} of ${ROUNDS}`,
  );
} finally {
  policy.close();
  db.close();
  await client.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
