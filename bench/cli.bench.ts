// The `bankops` command's start (issue 32, "a CLI read as quick as gh"): a read on the embedded
// sandbox, `approvals list` and `--help`, each timed from spawn to exit against a bare `node -e 0`
// started in the same rounds (interleaved: the machines are noisy). Goals: a read and `approvals
// list` ≤ 3× `node -e 0`, peak RSS ≤ 80 MB, `--help` where it was. Needs `npm run build` (dist/cli.js).
// Run: npx tsx bench/cli.bench.ts [rounds]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median } from './stats.js';

const ROUNDS = Number(process.argv[2] ?? 15);
const root = join(import.meta.dirname, '..');
const CLI = join(root, 'dist', 'cli.js');
const RSS_PROBE = join(import.meta.dirname, 'fixtures', 'max-rss.mjs');
const GOAL_RATIO = 3;
const GOAL_RSS_MB = 80;

interface Case {
  name: string;
  args: string[];
  /** Held to the goals (the reads); `--help` is shown for comparison. */
  goal: boolean;
}

const CASES: Case[] = [
  { name: 'node -e 0 (baseline)', args: ['-e', '0'], goal: false },
  { name: 'bankops --help', args: [CLI, '--help'], goal: false },
  { name: 'bankops call get_balances', args: [CLI, 'call', 'get_balances'], goal: true },
  { name: 'bankops approvals list', args: [CLI, 'approvals', 'list'], goal: true },
];

/** The environment without our configuration: the embedded sandbox and a database of the bench's own. */
function cleanEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Nor the loader flags of whatever runs this bench (tsx): the command runs as a person starts it.
    if (value === undefined || key.startsWith('BANKOPS_') || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return { ...env, BANKOPS_DB: join(dir, 'bankops.db'), BANKOPS_ACTOR: 'alice' };
}

function run(args: string[], env: NodeJS.ProcessEnv): { ms: number; status: number | null; stderr: string } {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  return { ms: performance.now() - started, status: child.status, stderr: child.stderr.toString('utf8') };
}

/** Peak RSS of one run, in MB, from the preloaded probe (a run of its own: the probe is not timed). */
function peakRssMb(args: string[], env: NodeJS.ProcessEnv, dir: string): number {
  const file = join(dir, 'rss');
  rmSync(file, { force: true });
  run(['--import', RSS_PROBE, ...args], { ...env, BANKOPS_BENCH_RSS_FILE: file });
  return existsSync(file) ? Number(readFileSync(file, 'utf8')) / 1024 : Number.NaN;
}

if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
const dir = mkdtempSync(join(tmpdir(), 'bankops-cli-bench-'));
try {
  const env = cleanEnv(dir);
  // The database, its key and the sandbox's state are made by the first run; a payout waiting for
  // approval gives `approvals list` a row to show. Then one untimed run of each warms the disk cache.
  const payout = run(
    [
      CLI,
      'call',
      'create_payout',
      'beneficiaryId=ben_de_swift_0001',
      'sourceAccountId=acc_usd_0001',
      'sourceAssetCode=USD',
      'destinationRail=SWIFT',
      'amount=100',
      'side=SOURCE',
      'purposeCode=GOODS_PURCHASED',
    ],
    env,
  );
  if (payout.status !== 0) throw new Error(`the payout for approvals list failed: ${payout.stderr}`);
  for (const c of CASES) {
    const warm = run(c.args, env);
    if (warm.status !== 0) throw new Error(`${c.name} failed (${warm.status}): ${warm.stderr}`);
  }
  const samples = CASES.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round += 1) {
    CASES.forEach((c, i) => {
      samples[i]?.push(run(c.args, env).ms);
    });
  }
  const rss = CASES.map((c) => peakRssMb(c.args, env, dir));
  const medians = samples.map(median);
  const base = medians[0] ?? Number.NaN;

  console.log(
    `\nbankops CLI, spawn to exit (median of ${ROUNDS} interleaved rounds; load average now ${load()}):`,
  );
  const width = Math.max(...CASES.map((c) => c.name.length));
  CASES.forEach((c, i) => {
    const ms = medians[i] ?? Number.NaN;
    const ratio = ms / base;
    const mb = rss[i] ?? Number.NaN;
    const verdict = c.goal
      ? `  goal ≤ ${GOAL_RATIO}× and ≤ ${GOAL_RSS_MB} MB: ${ratio <= GOAL_RATIO && mb <= GOAL_RSS_MB ? 'met' : 'MISSED'}`
      : '';
    console.log(
      `  ${c.name.padEnd(width)}  ${ms.toFixed(0).padStart(5)} ms  ${ratio.toFixed(2).padStart(5)}× node -e 0  ` +
        `${mb.toFixed(0).padStart(4)} MB peak RSS${verdict}`,
    );
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
