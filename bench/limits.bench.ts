// Running totals and daily limits (docs/policy.md "Totals and limits"), on SQLite and on PostgreSQL
// on loopback, against one sandbox. In one run per backend:
//   (a) with 100,000 earlier approvals in the store (each with its hold, spread over 100 days,
//       200 requesters, 500 beneficiaries, 20 accounts), a payout request under a policy with
//       `total:` conditions and limits against the same request without them, alternating, each
//       policy on its own copy of that store (so each counts its own requests, as a deployment
//       does: every payout keeps its hold whatever the policy counts), goal: median with ≤ 1.10×
//       median without;
//   (b) 100 concurrent requests of 1,000 USD over two replicas against a 50,000 USD daily limit
//       per requester: exactly 50 admitted, p99 request latency reported.
// PostgreSQL at BANKOPS_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); none:
// that half is skipped. Run: npx tsx bench/limits.bench.ts [requests]
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type Runtime } from '../src/app/runtime.js';
import { cliActor } from '../src/core/actors.js';
import type { Approval } from '../src/core/approvals/approval.js';
import type { ExecuteResult } from '../src/core/results.js';
import type { MoneyHold } from '../src/core/totals/store.js';
import { PAYOUT } from '../test/helpers/approvals.js';
import { runtimeOptions, testConfig } from '../test/helpers/core.js';
import { asServerAdmin, TEST_SERVER_URL, urlFor, writeFingerprintKey } from '../test/helpers/postgres.js';
import { type RunningSandbox, startTestSandbox } from '../test/helpers/sandbox.js';
import { load, median } from './stats.js';

const REQUESTS = Number(process.argv[2] ?? 200);
const EARLIER = 100_000;
const DAY = 86_400_000;

const policy = (counted: boolean, limit = 1_000_000_000) => `
roles: [viewer, operator, approver]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator, approver]
${counted ? `limits:\n  zone: Europe/Berlin\n  perRequester: { USD: ${limit} }\n  perBeneficiary: { USD: 1000000000 }\n  perSourceAccount: { USD: 1000000000 }\n` : ''}rules:
  - name: large-payouts
    tools: [create_payout]
    when:
      any:
        - amount: { atLeast: { USD: 50000 } }
${counted ? '        - total: { of: requester, within: 24h, atLeast: { USD: 1000000000 } }\n        - total: { of: beneficiary, within: 7d, atLeast: { USD: 1000000000 } }\n' : ''}    allow: [operator]
    approval: { approvers: 2, role: approver }
  - tools: [create_payout]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - readOnly: true
    allow: [viewer, operator, approver]
`;

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

interface Place {
  label: string;
  dir: string;
  databaseUrl?: string;
  keyFile: string;
}

async function runtimeAt(
  place: Place,
  sandbox: RunningSandbox,
  name: string,
  yaml: string,
): Promise<Runtime> {
  const policyPath = join(place.dir, `${name}.yaml`);
  writeFileSync(policyPath, yaml);
  const config = {
    ...testConfig(sandbox, { dbPath: join(place.dir, 'bankops.db'), policyPath }),
    fingerprintKeyFile: place.keyFile,
    ...(place.databaseUrl === undefined ? {} : { databaseUrl: place.databaseUrl }),
  };
  return createRuntime(config, { ...runtimeOptions(), owner: `${name}:1` });
}

let reference = 0;
const ask = (runtime: Runtime, amount: number, as = 'operator'): Promise<ExecuteResult> => {
  reference += 1;
  return runtime.executor.execute({
    tool: 'create_payout',
    input: { ...PAYOUT, amount, reference: `bench ${reference}` },
    actor: cliActor(as),
  });
};

/** 100,000 earlier approvals, each with its hold, written through the stores in batches. */
async function seed(runtime: Runtime): Promise<void> {
  const first = await ask(runtime, 10);
  if (first.status !== 'pending_approval') throw new Error(`seed: ${JSON.stringify(first)}`);
  const template = await runtime.storage.read((s) => s.approvals.byId(first.approvalId));
  if (template === undefined) throw new Error('seed: no template');
  const now = Date.now();
  const states = ['succeeded', 'succeeded', 'succeeded', 'rejected', 'expired', 'failed'] as const;
  for (let n = 0; n < EARLIER; n += 2_000) {
    await runtime.storage.transaction(async (tx) => {
      for (let i = n; i < Math.min(n + 2_000, EARLIER); i += 1) {
        const id = `apr_seed_${i}`;
        const at = now - Math.floor((i / EARLIER) * 100 * DAY) - 60_000;
        const approval: Approval = {
          ...template,
          id,
          fingerprint: `seed-${i}`,
          state: states[i % states.length] ?? 'succeeded',
          requestId: `${id}-1`,
          createdAt: new Date(at).toISOString(),
          updatedAt: new Date(at).toISOString(),
        };
        const hold: MoneyHold = {
          id: `hold_seed_${i}`,
          at,
          // The bench's own requester, beneficiary and account have their share of the history.
          requester: i % 200 === 0 ? 'cli:operator' : `cli:person${i % 200}`,
          beneficiary: i % 500 === 0 ? PAYOUT.beneficiaryId : `ben_seed_${i % 500}`,
          sourceAccount: i % 20 === 0 ? PAYOUT.sourceAccountId : `acc_seed_${i % 20}`,
          currency: 'USD',
          amount: 1_000_00 + (i % 97) * 100,
          approvalId: id,
        };
        await tx.approvals.insert(approval);
        await tx.holds.insert(hold);
      }
    });
  }
}

/**
 * (a) The same request with and without totals and limits, alternating; medians in ms. `places`:
 * the store seeded for the request without, and where its copy goes for the request with
 * (`copy`: a file copy, or a database made from it as a template).
 */
async function cost(
  places: readonly [Place, Place],
  sandbox: RunningSandbox,
  copy: () => Promise<void>,
): Promise<void> {
  const [place, other] = places;
  const seeding = performance.now();
  const seeder = await runtimeAt(place, sandbox, 'without', policy(false));
  try {
    await seed(seeder);
  } finally {
    await seeder.close();
  }
  await copy();
  const seeded = ((performance.now() - seeding) / 1000).toFixed(1);
  const without = await runtimeAt(place, sandbox, 'without', policy(false));
  const withTotals = await runtimeAt({ ...other, keyFile: place.keyFile }, sandbox, 'with', policy(true));
  try {
    const samples: Record<'with' | 'without', number[]> = { with: [], without: [] };
    // Warm-up of both, then alternating so load changes hit both alike.
    for (let i = 0; i < 10; i += 1) await Promise.all([ask(without, 10), ask(withTotals, 10)]);
    for (let i = 0; i < REQUESTS; i += 1) {
      for (const [label, runtime] of [
        ['without', without],
        ['with', withTotals],
      ] as const) {
        const started = performance.now();
        const result = await ask(runtime, 10);
        samples[label].push(performance.now() - started);
        if (result.status !== 'pending_approval') throw new Error(`${label}: ${JSON.stringify(result)}`);
      }
    }
    const [a, b] = [median(samples.with), median(samples.without)];
    // Each request with totals counts its policy's earlier ones too (one requester, beneficiary
    // and account): its windows hold about as many of them as requests went before it.
    const third = Math.floor(REQUESTS / 3);
    const ratioOf = (from: number, to: number): string =>
      (median(samples.with.slice(from, to)) / median(samples.without.slice(from, to))).toFixed(3);
    console.log(
      `  ${place.label}: payout request with totals and limits ${a.toFixed(2)} ms, without ${b.toFixed(2)} ms (medians of ${REQUESTS}; ${EARLIER.toLocaleString('en-US')} earlier approvals seeded and copied in ${seeded} s): ${(a / b).toFixed(3)}× (goal ≤ 1.10×); first third ${ratioOf(0, third)}×, last third ${ratioOf(REQUESTS - third, REQUESTS)}×`,
    );
  } finally {
    await withTotals.close();
    await without.close();
  }
}

/** (b) 100 requests at once over two replicas against one daily limit. */
async function concurrent(place: Place, sandbox: RunningSandbox): Promise<void> {
  const yaml = policy(true, 50_000);
  const [a, b] = [
    await runtimeAt(place, sandbox, 'replica-a', yaml),
    await runtimeAt(place, sandbox, 'replica-b', yaml),
  ];
  try {
    const started = performance.now();
    const timed = await Promise.all(
      Array.from({ length: 100 }, async (_, n) => {
        const t = performance.now();
        const result = await ask(n % 2 === 0 ? a : b, 1_000, 'limited');
        return { ms: performance.now() - t, status: result.status };
      }),
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const admitted = timed.filter((x) => x.status === 'pending_approval').length;
    const refused = timed.filter((x) => x.status === 'denied').length;
    const sorted = timed.map((x) => x.ms).sort((x, y) => x - y);
    console.log(
      `  ${place.label}: 100 requests of 1,000 USD at once over two replicas, limit 50,000 USD: ${admitted} admitted (${admitted === 50 ? 'exactly 50' : 'NOT 50'}), ${refused} refused; latency p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p99 ${quantile(sorted, 0.99).toFixed(0)} ms; all in ${seconds} s`,
    );
  } finally {
    await b.close();
    await a.close();
  }
}

const sandbox = await startTestSandbox();
const dirs: string[] = [];
const place = (label: string, databaseUrl?: string): Place => {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-limits-bench-'));
  dirs.push(dir);
  return {
    label,
    dir,
    keyFile: writeFingerprintKey(dir),
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  };
};
const admin = (sql: string): Promise<void> =>
  asServerAdmin((client) => client.query(sql)).then(() => undefined);
try {
  console.log(`\nRunning totals and daily limits (load ${load()})`);
  const [seeded, copied] = [place('SQLite    '), place('SQLite    ')];
  await cost([seeded, copied], sandbox, async () =>
    copyFileSync(join(seeded.dir, 'bankops.db'), join(copied.dir, 'bankops.db')),
  );
  await concurrent(place('SQLite    '), sandbox);
  const unreachable = await admin('SELECT 1').then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  if (unreachable !== undefined) {
    console.log(`  PostgreSQL: skipped, none at ${TEST_SERVER_URL} (${unreachable})`);
  } else {
    const database = (label: string): string => `bankops_bench_limits_${process.pid}_${label}`;
    const [without, withTotals, race] = [database('without'), database('with'), database('race')];
    try {
      await admin(`CREATE DATABASE ${without}`);
      await cost(
        [place('PostgreSQL', urlFor(without)), place('PostgreSQL', urlFor(withTotals))],
        sandbox,
        () => admin(`CREATE DATABASE ${withTotals} TEMPLATE ${without}`),
      );
      await admin(`CREATE DATABASE ${race}`);
      await concurrent(place('PostgreSQL', urlFor(race)), sandbox);
    } finally {
      for (const name of [without, withTotals, race])
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }
  console.log(`  (load after: ${load()})`);
} finally {
  await sandbox.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
