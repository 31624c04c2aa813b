// The stdio MCP server: what tools/list costs an assistant's context against its budgets; start-up
// against the smallest SDK server and against @stripe/mcp; a read tool call over stdio against the
// direct client call on the same sandbox. Figures are ratios against a baseline measured in the
// same run, in interleaved rounds (the machines are noisy); `uptime`'s load is printed with them.
// Needs `npm run build` (dist/mcp-bundle, dist/app/mcp-stdio.js).
// Run: npx tsx bench/mcp.bench.ts [calls per round] [--calls-only]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTEXT_BUDGET } from '../src/mcp/listing.js';
import { describeCalls, measureCalls } from './mcp-calls.js';
import { measureStartup, type StartupSample } from './mcp-startup.js';
import { load, median } from './stats.js';

const STARTUP_ROUNDS = 7;
const CALL_ROUNDS = 7;
const args = process.argv.slice(2);
const CALLS = Number(args.find((a) => /^\d+$/.test(a)) ?? 300);
/** Calls of each path before the timed rounds: server CPU per call settles after about 2,000. */
const WARMUP = 2500;
const CALLS_ONLY = args.includes('--calls-only');

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const BUNDLE = join(root, 'dist/mcp-bundle/bankops-mcp.mjs');
const UNBUNDLED = join(root, 'dist/app/mcp-stdio.js');
const CLI = join(root, 'dist/cli.js');
const MINIMAL = join(here, 'fixtures/minimal-server.mjs');
const FLOOR = join(here, 'fixtures/floor-server.mjs');
const PROBE = join(here, 'fixtures/network-probe.cjs');
const STRIPE_VERSION = '0.2.5';
const STRIPE_DIR = join(tmpdir(), 'bankops-bench-stripe');
// Obviously fake: the server checks only the prefix, and nothing here calls Stripe.
const FAKE_STRIPE_KEY = `sk_test_${'x'.repeat(24)}`;

/** The environment without our configuration or any Stripe key: each server gets only what we set. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('BANKOPS_') || key.startsWith('STRIPE_')) continue;
    // Nor the loader flags of whatever runs this bench (tsx): the servers run as an assistant starts them.
    if (key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

interface Server {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** Installs @stripe/mcp once into a cache folder outside the repository; its bin, or why not. */
function stripeBin(): { bin: string } | { error: string } {
  const pkgDir = join(STRIPE_DIR, 'node_modules/@stripe/mcp');
  const pkgFile = join(pkgDir, 'package.json');
  const installedVersion = (): string | undefined =>
    existsSync(pkgFile)
      ? (JSON.parse(readFileSync(pkgFile, 'utf8')) as { version?: string }).version
      : undefined;
  try {
    if (installedVersion() !== STRIPE_VERSION) {
      console.log(`installing @stripe/mcp@${STRIPE_VERSION} into ${STRIPE_DIR} (once) …`);
      execFileSync(
        'npm',
        ['install', '--prefix', STRIPE_DIR, `@stripe/mcp@${STRIPE_VERSION}`, '--no-audit', '--no-fund'],
        { stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 },
      );
    }
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { bin?: string | Record<string, string> };
    const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
    if (bin === undefined) return { error: 'its package.json names no bin' };
    return { bin: join(pkgDir, bin) };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { error: message ?? 'unknown error' };
  }
}

const fmt = (s: StartupSample): string =>
  `${s.ms.toFixed(0).padStart(5)} ms  ${String(s.tools).padStart(3)} tools  ` +
  `${String(s.bytes).padStart(7)} B tools/list  ${s.rssMb.toFixed(0).padStart(4)} MB peak RSS`;

/** 1. Start-up against the baselines; 2. what tools/list costs an assistant's context. */
async function startupAndContext(dir: string): Promise<void> {
  // 1. Start-up: spawn → initialize → tools/list answered, one of each server per round, in turn.
  const bankopsEnv = cleanEnv({ BANKOPS_DB: join(dir, 'startup.db'), XDG_DATA_HOME: dir });
  const servers: Server[] = [
    { name: 'minimal SDK server (baseline)', args: [MINIMAL], env: cleanEnv({}) },
    { name: 'bankops, bundled', args: [BUNDLE], env: bankopsEnv },
    { name: 'bankops, unbundled', args: [UNBUNDLED], env: bankopsEnv },
    { name: 'bankops mcp (the CLI)', args: [CLI, 'mcp'], env: bankopsEnv },
  ];
  const stripe = stripeBin();
  if ('bin' in stripe) {
    servers.push({
      name: `@stripe/mcp ${STRIPE_VERSION} --tools=all`,
      args: [stripe.bin, '--tools=all', `--api-key=${FAKE_STRIPE_KEY}`],
      env: cleanEnv({}),
    });
  } else {
    console.log(`@stripe/mcp ${STRIPE_VERSION} could not be installed (${stripe.error}): left out`);
  }

  // One untimed start of each with the network probe preloaded: warms the disk cache, and tells
  // whether a server tries to reach the network before answering tools/list.
  for (const server of servers) {
    const log = join(dir, `net-${servers.indexOf(server)}.log`);
    await measureStartup(process.execPath, ['--require', PROBE, ...server.args], {
      ...server.env,
      BANKOPS_BENCH_NET_LOG: log,
    });
    const attempts = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
    const unique = [...new Set(attempts)];
    console.log(
      `network at start-up, ${server.name}: ${
        unique.length === 0 ? 'none' : `${attempts.length} attempt(s): ${unique.slice(0, 5).join('; ')}`
      }`,
    );
  }

  console.log(`load average before the start-up rounds: ${load()}`);
  const samples = servers.map((): StartupSample[] => []);
  for (let round = 0; round < STARTUP_ROUNDS; round += 1) {
    // Rotate the order so no server always runs first (or right after the heaviest one).
    for (let k = 0; k < servers.length; k += 1) {
      const i = (round + k) % servers.length;
      const server = servers[i]!;
      samples[i]!.push(await measureStartup(process.execPath, server.args, server.env));
    }
  }
  const medians = samples.map(
    (list): StartupSample => ({
      ms: median(list.map((s) => s.ms)),
      tools: median(list.map((s) => s.tools)),
      bytes: median(list.map((s) => s.bytes)),
      rssMb: median(list.map((s) => s.rssMb)),
    }),
  );
  console.log(
    `\nstart-up, spawn → tools/list answered (median of ${STARTUP_ROUNDS} interleaved rounds; load average now ${load()}):`,
  );
  const width = Math.max(...servers.map((s) => s.name.length));
  servers.forEach((server, i) => {
    const list = samples[i]!.map((s) => s.ms);
    console.log(
      `  ${server.name.padEnd(width)}  ${fmt(medians[i]!)}  (min ${Math.min(...list).toFixed(0)}, max ${Math.max(...list).toFixed(0)} ms)`,
    );
  });
  const [minimal, bundled, unbundled, cli, stripeMedian] = medians;
  const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
  if (minimal !== undefined && bundled !== undefined && unbundled !== undefined) {
    console.log(
      `  bankops bundled / minimal:  time ${ratio(bundled.ms, minimal.ms)}, RSS ${ratio(bundled.rssMb, minimal.rssMb)}, ` +
        `tools/list bytes ${ratio(bundled.bytes, minimal.bytes)}`,
    );
    console.log(
      `  bankops bundled / unbundled: time ${ratio(bundled.ms, unbundled.ms)}, RSS ${ratio(bundled.rssMb, unbundled.rssMb)}`,
    );
    if (stripeMedian !== undefined && cli !== undefined) {
      console.log(
        `  bankops mcp (CLI) / stripe: time ${ratio(cli.ms, stripeMedian.ms)}, RSS ${ratio(cli.rssMb, stripeMedian.rssMb)}`,
      );
    }
    if (stripeMedian !== undefined) {
      console.log(
        `  bankops bundled / stripe:   time ${ratio(bundled.ms, stripeMedian.ms)}, RSS ${ratio(bundled.rssMb, stripeMedian.rssMb)}, ` +
          `tools/list bytes ${ratio(bundled.bytes, stripeMedian.bytes)} ` +
          `(per tool ${ratio(bundled.bytes / bundled.tools, stripeMedian.bytes / stripeMedian.tools)})`,
      );
    }
  }

  // 2. What tools/list costs an assistant's context, as the bundle sends it to every client.
  const listed = await measureStartup(process.execPath, [BUNDLE], bankopsEnv, { keepList: true });
  const tools = (listed.list ?? []) as { name: string; description?: string; inputSchema?: unknown }[];
  const modelBytes = tools.reduce(
    (sum, t) =>
      sum +
      Buffer.byteLength(
        JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }),
      ),
    0,
  );
  const within = (size: number, budget: number): string =>
    `${size} B of ${budget} B (${((size / budget) * 100).toFixed(1)} %)`;
  console.log(
    `\ntools/list of the default server (${tools.length} tools):\n` +
      `  name + description + input schema (what the model reads): ${within(modelBytes, CONTEXT_BUDGET.model)}\n` +
      `  the whole list (titles, output schemas, annotations):     ${within(listed.bytes, CONTEXT_BUDGET.whole)}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'bankops-mcp-bench-'));

try {
  if (!existsSync(BUNDLE) || !existsSync(UNBUNDLED)) {
    throw new Error('dist/mcp-bundle/bankops-mcp.mjs or dist/app/mcp-stdio.js is missing: run npm run build');
  }

  if (!CALLS_ONLY) await startupAndContext(dir);

  // 3. A read over stdio (SDK client → JSON-RPC over pipes → SDK server → executor: validation,
  //    policy, audit → client → the sandbox, and back, the client checking the output schema)
  //    against the same read by the service client, by the executor, and by the floor server, in
  //    one run on ONE sandbox.
  console.log(`\nload average before the calls: ${load()}`);
  const calls = await measureCalls({
    bundle: BUNDLE,
    floor: FLOOR,
    minimal: MINIMAL,
    dir,
    env: cleanEnv,
    rounds: CALL_ROUNDS,
    calls: CALLS,
    warmup: WARMUP,
  });
  console.log(describeCalls(calls, CALL_ROUNDS, CALLS));
  console.log(`load average after: ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
