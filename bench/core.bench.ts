// Executor overhead over a direct client call, and concurrent approvals, against the sandbox on
// loopback, with the runtime built by the composition root as every entry point builds it.
// Figures are ratios against a baseline measured in the same run (the machines are noisy).
// Run: npm run bench (or npx tsx bench/core.bench.ts [calls]). On SQLite, then on PostgreSQL when
// its server answers (BANKOPS_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/app/config.js';
import { createRuntime, type Runtime } from '../src/app/runtime.js';
import { cliActor } from '../src/core/actors.js';
import { SANDBOX_DEFAULTS, startSandbox } from '../src/sandbox/index.js';
import { asServerAdmin, postgresAvailable, urlFor } from '../test/helpers/postgres.js';
import { serviceEnv } from '../test/helpers/sandbox.js';
import { median } from './stats.js';

const ROUNDS = 15;
const CALLS = Number(process.argv[2] ?? 200);
/**
 * Calls of each way before the rounds. A runtime's audit writer is a new thread with a cold
 * compiler: its first few thousand entries cost it about twice the CPU of a running `serve`'s (52–77
 * µs against 30–37 µs an entry on these machines), which the rounds would count against the
 * executor. The figure is a running server's, so each way is run to its steady state first.
 */
const WARMUP = 3_000;

/** CPU time of this process's main thread so far, in µs (Linux; undefined elsewhere). */
function mainThreadCpuUs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return undefined;
  }
}

/** Milliseconds per call. */
async function timeIt(fn: () => Promise<unknown>, n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i += 1) await fn();
  return (performance.now() - started) / n;
}

/** Milliseconds per call, and the main thread's CPU µs per call when the system tells it. */
async function timeWithCpu(
  fn: () => Promise<unknown>,
  n: number,
): Promise<{ ms: number; cpuUs: number | undefined }> {
  const cpu = mainThreadCpuUs();
  const ms = await timeIt(fn, n);
  const after = mainThreadCpuUs();
  return { ms, cpuUs: cpu === undefined || after === undefined ? undefined : (after - cpu) / n };
}

/** The database settings of one run: the SQLite file, or a new PostgreSQL database and its key file. */
async function databaseOf(backend: 'SQLite' | 'PostgreSQL', dir: string): Promise<Record<string, string>> {
  if (backend === 'SQLite') return { BANKOPS_DB: join(dir, 'bench.db') };
  const name = `bankops_bench_core_${process.pid}`;
  await asServerAdmin(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  });
  const keyFile = join(dir, 'fingerprint.key');
  writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  return {
    BANKOPS_DB: join(dir, 'bench.db'),
    BANKOPS_DATABASE_URL: urlFor(name),
    BANKOPS_FINGERPRINT_KEY_FILE: keyFile,
  };
}

const backends: ('SQLite' | 'PostgreSQL')[] = [
  'SQLite',
  ...((await postgresAvailable()) ? ['PostgreSQL' as const] : []),
];
for (const backend of backends) await benchOn(backend);

/** The sandbox in a child process (bench/sandbox-child.ts), as a service elsewhere would be. */
async function sandboxElsewhere(): Promise<{
  url: string;
  credentials: typeof SANDBOX_DEFAULTS;
  close: () => Promise<void>;
}> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./sandbox-child.ts', import.meta.url))],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const started = JSON.parse(line) as { url: string; credentials: typeof SANDBOX_DEFAULTS };
  return {
    ...started,
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/**
 * A runtime as the entry points build it, against the sandbox at `url`: with the audit writer in a
 * thread of its own as `bankops serve` has it (`auditThread`), or in the caller's thread as a short
 * CLI command has it.
 */
function runtimeAgainst(
  url: string,
  c: typeof SANDBOX_DEFAULTS,
  database: Record<string, string>,
  auditThread = true,
): Promise<Runtime> {
  return createRuntime(
    loadConfig({
      ...serviceEnv(url, c),
      ...database,
    }),
    { recover: false, auditThread },
  );
}

/**
 * A read: the client alone, then the same read through the executor (validation, policy, the
 * audit entry in a group commit without an fsync of its own), as `serve` runs it (the audit writer
 * in its own thread) and as a short command does (in the caller's thread). Interleaved rounds;
 * prints the ratios.
 */
async function readRatio(
  runtimes: { serve: Runtime; command: Runtime },
  companyCode: string,
  backend: string,
  where: string,
): Promise<void> {
  const { client } = runtimes.serve;
  const operator = cliActor('bench-operator');
  const read = (runtime: Runtime) => () =>
    runtime.executor.execute({ tool: 'get_balances', input: {}, actor: operator });
  const ways = {
    direct: () => client.accounts.balances({ companyCode }),
    serve: read(runtimes.serve),
    command: read(runtimes.command),
  };
  const names = Object.keys(ways) as (keyof typeof ways)[];
  const times: Record<keyof typeof ways, number[]> = { direct: [], serve: [], command: [] };
  const cpu: Record<keyof typeof ways, number[]> = { direct: [], serve: [], command: [] };
  for (const name of names) await timeIt(ways[name], WARMUP);
  // Each round times the three back to back, starting with another each time; a ratio is taken
  // within each round (the machine's load drifts between rounds), and the median of them reported.
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(round + k) % names.length] as keyof typeof ways;
      const timed = await timeWithCpu(ways[name], CALLS);
      times[name].push(timed.ms);
      if (timed.cpuUs !== undefined) cpu[name].push(timed.cpuUs);
    }
  }
  const ratio = (name: 'serve' | 'command') =>
    median(times[name].map((t, round) => t / (times.direct[round] as number)));
  console.log(
    `read get_balances, ${where}: direct client ${median(times.direct).toFixed(3)} ms/call, ` +
      `executor ${median(times.serve).toFixed(3)} ms/call, ratio ${ratio('serve').toFixed(2)}x ` +
      `(goal ≤ ${backend === 'SQLite' ? '1.10' : '1.25'}x; median of ${ROUNDS} rounds of ${CALLS}); ` +
      `with the audit writer in the caller's thread (a short CLI command) ${median(times.command).toFixed(3)} ms/call, ` +
      `${ratio('command').toFixed(2)}x`,
  );
  if (cpu.direct.length === ROUNDS) {
    // The request thread's own CPU, less sensitive to the machine's load than the clock.
    const per = (name: keyof typeof ways) => median(cpu[name]);
    console.log(
      `  main thread CPU per read: direct ${per('direct').toFixed(1)} µs, executor +${(per('serve') - per('direct')).toFixed(1)} µs ` +
        `(${(per('serve') / per('direct')).toFixed(2)}x), writer in the caller's thread +${(per('command') - per('direct')).toFixed(1)} µs ` +
        `(${(per('command') / per('direct')).toFixed(2)}x)`,
    );
  }
}

async function benchOn(backend: 'SQLite' | 'PostgreSQL'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-bench-'));
  const sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS } });
  const c = sandbox.credentials;
  const database = await databaseOf(backend, dir);
  const runtime = await runtimeAgainst(sandbox.url, c, database);
  const { client, executor, approvals } = runtime;
  const operator = cliActor('bench-operator');
  console.log(`core on ${backend}:`);

  try {
    // 1. A read, with the sandbox in this process (its work counts in both figures), then with the
    //    sandbox in a process of its own, as the service is in a deployment.
    const command = await runtimeAgainst(sandbox.url, c, database, false);
    try {
      await readRatio({ serve: runtime, command }, c.companyId, backend, 'sandbox in process');
    } finally {
      await command.close();
    }
    const elsewhere = await sandboxElsewhere();
    const apart = await runtimeAgainst(elsewhere.url, elsewhere.credentials, database);
    const apartCommand = await runtimeAgainst(elsewhere.url, elsewhere.credentials, database, false);
    try {
      await readRatio(
        { serve: apart, command: apartCommand },
        elsewhere.credentials.companyId,
        backend,
        'sandbox in its own process',
      );
    } finally {
      await apart.close();
      await apartCommand.close();
      await elsewhere.close();
    }

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
    for (let round = 0; round < 5; round += 1) {
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
        `${ap.toFixed(1)} ms, ratio ${(ap / dp).toFixed(1)}x (median of 5); payouts created through ` +
        `approvals: ${(await approvals.list({ state: 'succeeded' })).length} of 5`,
    );
  } finally {
    await runtime.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
    if (backend === 'PostgreSQL') {
      const name = `bankops_bench_core_${process.pid}`;
      await asServerAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }
}
