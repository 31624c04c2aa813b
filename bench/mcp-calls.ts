// A read over stdio MCP against the same read by the service client, and what lies between them.
// Every path reads get_balances from ONE sandbox, run in this process: the direct call, the
// executor in this process, and the stdio server (the bundle, a child process) configured with
// that sandbox as its service (BANKOPS_BASE_URL), not with an embedded sandbox of its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { loadConfig } from '../src/app/config.js';
import { createRuntime } from '../src/app/runtime.js';
import { mcpStdioActor } from '../src/core/actors.js';
import { createServiceClient } from '../src/core/client/index.js';
import { SANDBOX_DEFAULTS, startSandbox } from '../src/sandbox/index.js';

export interface CallFigures {
  /** Wall time per sequential call, ms (median of the rounds). */
  direct: number;
  executor: number;
  stdio: number;
  /** CPU per call, ms: this process (client, and the sandbox serving it) and the stdio server. */
  cpu: { direct: number; executor: number; stdioHere: number; stdioServer: number };
  firstStdioMs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** CPU time of this process, ms. */
const ownCpu = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** CPU time of another process, ms (Linux; 10 ms ticks, so only totals over many calls mean much). */
function cpuOf(pid: number | null): number {
  if (pid === null) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Runs `fn` `n` times in sequence: wall ms per call, and CPU ms per call here and in `pid`. */
async function timeIt(fn: () => Promise<unknown>, n: number, pid: number | null = null) {
  const [cpu0, other0, started] = [ownCpu(), cpuOf(pid), performance.now()];
  for (let i = 0; i < n; i += 1) await fn();
  const wall = (performance.now() - started) / n;
  return { wall, cpu: (ownCpu() - cpu0) / n, other: (cpuOf(pid) - other0) / n };
}

export async function measureCalls(options: {
  bundle: string;
  dir: string;
  env: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  rounds: number;
  calls: number;
}): Promise<CallFigures> {
  const sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS } });
  const c = sandbox.credentials;
  const service = {
    BANKOPS_BASE_URL: sandbox.url,
    BANKOPS_API_KEY: c.apiKey,
    BANKOPS_PRODUCT_ID: c.productId,
    BANKOPS_USER_ID: c.userId,
    BANKOPS_COMPANY_ID: c.companyId,
  };
  const direct = createServiceClient({
    baseUrl: sandbox.url,
    apiKey: c.apiKey,
    productId: c.productId,
    userId: c.userId,
    companyId: c.companyId,
  });
  const runtime = await createRuntime(
    loadConfig({ ...service, BANKOPS_DB: join(options.dir, 'executor.db') }),
    {
      recover: false,
    },
  );
  // Today's client on today's protocol (2026-07-28), as a current assistant connects.
  const mcp = new Client(
    { name: 'bankops-bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.bundle],
    env: options.env({ ...service, BANKOPS_DB: join(options.dir, 'stdio.db') }) as Record<string, string>,
    stderr: 'ignore',
  });
  try {
    await mcp.connect(transport);
    await mcp.listTools();
    const paths = {
      direct: () => direct.accounts.balances({ companyCode: c.companyId }),
      executor: () => runtime.executor.execute({ tool: 'get_balances', input: {}, actor: mcpStdioActor() }),
      stdio: async () => {
        const result = await mcp.callTool({ name: 'get_balances', arguments: {} });
        if (result.isError === true)
          throw new Error(`get_balances failed over MCP: ${JSON.stringify(result.content)}`);
      },
    };
    // The first call builds the server's runtime (tools, SQLite, policy, client); then warm-up.
    const started = performance.now();
    await paths.stdio();
    const firstStdioMs = performance.now() - started;
    for (let i = 0; i < 50; i += 1) for (const run of Object.values(paths)) await run();

    const samples = { direct: [] as number[], executor: [] as number[], stdio: [] as number[] };
    const cpu = {
      direct: [] as number[],
      executor: [] as number[],
      stdioHere: [] as number[],
      stdioServer: [] as number[],
    };
    for (let round = 0; round < options.rounds; round += 1) {
      const d = await timeIt(paths.direct, options.calls);
      const e = await timeIt(paths.executor, options.calls);
      const s = await timeIt(paths.stdio, options.calls, transport.pid);
      samples.direct.push(d.wall);
      samples.executor.push(e.wall);
      samples.stdio.push(s.wall);
      cpu.direct.push(d.cpu);
      cpu.executor.push(e.cpu);
      cpu.stdioHere.push(s.cpu);
      cpu.stdioServer.push(s.other);
    }
    return {
      direct: median(samples.direct),
      executor: median(samples.executor),
      stdio: median(samples.stdio),
      cpu: {
        direct: median(cpu.direct),
        executor: median(cpu.executor),
        stdioHere: median(cpu.stdioHere),
        stdioServer: median(cpu.stdioServer),
      },
      firstStdioMs,
    };
  } finally {
    await mcp.close();
    await runtime.close();
    await direct.close();
    await sandbox.close();
  }
}
