// The stdio MCP server: start-up against the smallest SDK server and against @stripe/mcp, and the
// latency of a read tool call over stdio against the direct client call. Figures are ratios
// against a baseline measured in the same run, in interleaved rounds (the machines are noisy).
// Needs `npm run build` (dist/mcp-bundle, dist/app/mcp-stdio.js). Run: npx tsx bench/mcp.bench.ts [calls]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createServiceClient } from '../src/core/client/index.js';
import { SANDBOX_DEFAULTS, startSandbox } from '../src/sandbox/index.js';
import { measureStartup, type StartupSample } from './mcp-startup.js';

const STARTUP_ROUNDS = 7;
const CALL_ROUNDS = 5;
const CALLS = Number(process.argv[2] ?? 200);

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const BUNDLE = join(root, 'dist/mcp-bundle/bankops-mcp.mjs');
const UNBUNDLED = join(root, 'dist/app/mcp-stdio.js');
const CLI = join(root, 'dist/cli.js');
const MINIMAL = join(here, 'fixtures/minimal-server.mjs');
const PROBE = join(here, 'fixtures/network-probe.cjs');
const STRIPE_VERSION = '0.2.5';
const STRIPE_DIR = join(tmpdir(), 'bankops-bench-stripe');
// Obviously fake: the server checks only the prefix, and nothing here calls Stripe.
const FAKE_STRIPE_KEY = `sk_test_${'x'.repeat(24)}`;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function timeIt(fn: () => Promise<unknown>, n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i += 1) await fn();
  return (performance.now() - started) / n;
}

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

const dir = mkdtempSync(join(tmpdir(), 'bankops-mcp-bench-'));

try {
  if (!existsSync(BUNDLE) || !existsSync(UNBUNDLED)) {
    throw new Error('dist/mcp-bundle/bankops-mcp.mjs or dist/app/mcp-stdio.js is missing: run npm run build');
  }

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
  console.log(`\nstart-up, spawn → tools/list answered (median of ${STARTUP_ROUNDS} interleaved rounds):`);
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

  // 2. A read tool call over stdio (SDK client → JSON-RPC over pipes → SDK server → executor:
  //    validation, policy, audit → client → embedded sandbox, and back, with the client checking
  //    the output schema) against the same read by the service client directly.
  const sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS } });
  const c = sandbox.credentials;
  const direct = createServiceClient({
    baseUrl: sandbox.url,
    apiKey: c.apiKey,
    productId: c.productId,
    userId: c.userId,
    companyId: c.companyId,
  });
  // Today's client on today's protocol (2026-07-28), as a current assistant connects.
  const mcp = new Client(
    { name: 'bankops-bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE],
    env: cleanEnv({ BANKOPS_DB: join(dir, 'calls.db'), XDG_DATA_HOME: dir }) as Record<string, string>,
    stderr: 'ignore',
  });
  try {
    await mcp.connect(transport);
    const { tools } = await mcp.listTools();
    const modelBytes = tools.reduce(
      (sum, t) =>
        sum +
        Buffer.byteLength(
          JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }),
        ),
      0,
    );
    console.log(
      `\ntools/list of the default server (${tools.length} tools): ${Buffer.byteLength(JSON.stringify({ tools }))} B in all, ` +
        `${modelBytes} B of name + description + input schema (what the model reads)`,
    );
    // Warm-up: the first call builds the server's runtime (SQLite, policy, sandbox, client).
    let started = performance.now();
    const first = await mcp.callTool({ name: 'get_balances', arguments: {} });
    const firstMs = performance.now() - started;
    if (first.isError === true)
      throw new Error(`get_balances failed over MCP: ${JSON.stringify(first.content)}`);
    for (let i = 0; i < 20; i += 1) await mcp.callTool({ name: 'get_balances', arguments: {} });
    started = performance.now();
    await direct.accounts.balances({ companyCode: c.companyId });
    const directFirstMs = performance.now() - started;
    for (let i = 0; i < 20; i += 1) await direct.accounts.balances({ companyCode: c.companyId });

    const directMs: number[] = [];
    const mcpMs: number[] = [];
    for (let round = 0; round < CALL_ROUNDS; round += 1) {
      directMs.push(await timeIt(() => direct.accounts.balances({ companyCode: c.companyId }), CALLS));
      mcpMs.push(await timeIt(() => mcp.callTool({ name: 'get_balances', arguments: {} }), CALLS));
    }
    const d = median(directMs);
    const m = median(mcpMs);
    const spread = (list: number[]): string =>
      `rounds ${Math.min(...list).toFixed(3)}–${Math.max(...list).toFixed(3)}`;
    console.log(
      `\nread get_balances (median of ${CALL_ROUNDS} interleaved rounds of ${CALLS} sequential calls):\n` +
        `  direct client call        ${d.toFixed(3)} ms/call  (${spread(directMs)})\n` +
        `  MCP tools/call over stdio ${m.toFixed(3)} ms/call  (${spread(mcpMs)})\n` +
        `  ratio stdio MCP / direct  ${(m / d).toFixed(2)}x\n` +
        `  first call (builds the runtime): MCP ${firstMs.toFixed(0)} ms, direct ${directFirstMs.toFixed(1)} ms`,
    );
  } finally {
    await mcp.close();
    await direct.close();
    await sandbox.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
