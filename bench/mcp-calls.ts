// A read over stdio MCP against the same read by the service client, and what lies between them.
// Every path reads get_balances from ONE sandbox, run in this process: the direct call, the
// executor in this process, the floor (bench/fixtures/floor-server.mjs: the smallest server on the
// same SDK whose one tool makes the same client call) and bankops's stdio server (the bundle), both
// child processes configured with that sandbox as their service (BANKOPS_BASE_URL). Beside them,
// the MCP round trip alone: the minimal SDK server's echo tool, which calls nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { loadConfig } from '../src/app/config.js';
import { createRuntime } from '../src/app/runtime.js';
import { mcpStdioActor } from '../src/core/actors.js';
import { createServiceClient } from '../src/core/client/index.js';
import { SANDBOX_DEFAULTS, startSandbox } from '../src/sandbox/index.js';
import { serviceEnv } from '../test/helpers/sandbox.js';
import { median } from './stats.js';

export const PATHS = ['direct', 'executor', 'echo', 'floor', 'stdio'] as const;
export type PathName = (typeof PATHS)[number];

/** Per call, ms: wall time, CPU of this process (client and sandbox), CPU of the server child. */
export interface PathFigures {
  wall: number;
  here: number;
  server: number;
}

export interface CallFigures {
  /** Calls of each path before the rounds (V8 needs thousands to optimise the code of a call). */
  warmup: number;
  /** Medians of the interleaved rounds, after the warm-up. */
  steady: Record<PathName, PathFigures>;
  /** A fresh server's first calls (what a short assistant session sees). */
  fresh: { calls: number; floor: PathFigures; stdio: PathFigures };
  /** The first call of each server (bankops builds its runtime then). */
  firstMs: { floor: number; stdio: number };
}

/** CPU time of this process, ms. */
const ownCpu = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * CPU time of another process, ms (Linux): the sum of its threads' run time from schedstat
 * (nanoseconds; /proc/<pid>/stat counts 10 ms ticks, too coarse for a round of calls).
 */
function cpuOf(pid: number | null): number {
  if (pid === null) return 0;
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    }
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}

interface Path {
  run: () => Promise<unknown>;
  /** The server process of the path, if it has one. */
  pid: number | null;
}

/** Runs a path `n` times in sequence: totals (not yet per call) of wall, own and server CPU ms. */
async function timeIt(path: Path, n: number): Promise<PathFigures> {
  const [here0, server0, started] = [ownCpu(), cpuOf(path.pid), performance.now()];
  for (let i = 0; i < n; i += 1) await path.run();
  return { wall: performance.now() - started, here: ownCpu() - here0, server: cpuOf(path.pid) - server0 };
}

const perCall = (total: PathFigures, n: number): PathFigures => ({
  wall: total.wall / n,
  here: total.here / n,
  server: total.server / n,
});

const add = (a: PathFigures, b: PathFigures): PathFigures => ({
  wall: a.wall + b.wall,
  here: a.here + b.here,
  server: a.server + b.server,
});

/** A 2026-07-28 client (as a current assistant connects) of a stdio server started from `script`. */
async function connect(
  script: string,
  env: NodeJS.ProcessEnv,
  call: { name: string; arguments: Record<string, unknown> } = { name: 'get_balances', arguments: {} },
) {
  const client = new Client(
    { name: 'bankops-bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script],
    env: env as Record<string, string>,
    stderr: 'ignore',
  });
  await client.connect(transport);
  await client.listTools();
  const path: Path = {
    pid: transport.pid,
    run: async () => {
      const result = await client.callTool(call);
      if (result.isError === true)
        throw new Error(`${call.name} failed over MCP (${script}): ${JSON.stringify(result.content)}`);
    },
  };
  return { client, path };
}

export async function measureCalls(options: {
  bundle: string;
  floor: string;
  /** The minimal SDK server with its echo tool. */
  minimal: string;
  dir: string;
  env: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  rounds: number;
  calls: number;
  warmup: number;
}): Promise<CallFigures> {
  const sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS } });
  const c = sandbox.credentials;
  const service = {
    ...serviceEnv(sandbox.url, c),
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
    { recover: false },
  );
  const clients: Client[] = [];
  try {
    const floor = await connect(options.floor, options.env(service));
    clients.push(floor.client);
    const stdio = await connect(
      options.bundle,
      options.env({ ...service, BANKOPS_DB: join(options.dir, 'stdio.db') }),
    );
    clients.push(stdio.client);
    const echo = await connect(options.minimal, options.env({}), { name: 'echo', arguments: { text: 'ok' } });
    clients.push(echo.client);
    const paths: Record<PathName, Path> = {
      direct: { pid: null, run: () => direct.accounts.balances({ companyCode: c.companyId }) },
      executor: {
        pid: null,
        run: () => runtime.executor.execute({ tool: 'get_balances', input: {}, actor: mcpStdioActor() }),
      },
      echo: echo.path,
      floor: floor.path,
      stdio: stdio.path,
    };

    // The first call of each server: bankops builds its runtime (tools, SQLite, policy, client).
    const firstMs = {
      floor: (await timeIt(paths.floor, 1)).wall,
      stdio: (await timeIt(paths.stdio, 1)).wall,
    };

    // Fresh servers: their first calls, in alternating blocks of ten so neither gets a warmer sandbox.
    const zero: PathFigures = { wall: 0, here: 0, server: 0 };
    const fresh = { floor: zero, stdio: zero };
    for (let done = 0; done < options.calls; done += 10) {
      fresh.stdio = add(fresh.stdio, await timeIt(paths.stdio, 10));
      fresh.floor = add(fresh.floor, await timeIt(paths.floor, 10));
    }
    const freshCalls = Math.ceil(options.calls / 10) * 10;

    for (let i = 0; i < options.warmup; i += 1) for (const name of PATHS) await paths[name].run();

    const samples = Object.fromEntries(PATHS.map((name) => [name, [] as PathFigures[]])) as Record<
      PathName,
      PathFigures[]
    >;
    for (let round = 0; round < options.rounds; round += 1) {
      // Rotate the order so no path always runs first (or right after the heaviest one).
      for (let k = 0; k < PATHS.length; k += 1) {
        const name = PATHS[(round + k) % PATHS.length]!;
        samples[name].push(perCall(await timeIt(paths[name], options.calls), options.calls));
      }
    }
    const steady = Object.fromEntries(
      PATHS.map((name) => {
        const list = samples[name];
        const figures: PathFigures = {
          wall: median(list.map((s) => s.wall)),
          here: median(list.map((s) => s.here)),
          server: median(list.map((s) => s.server)),
        };
        return [name, figures];
      }),
    ) as Record<PathName, PathFigures>;
    return {
      warmup: options.warmup,
      steady,
      fresh: {
        calls: freshCalls,
        floor: perCall(fresh.floor, freshCalls),
        stdio: perCall(fresh.stdio, freshCalls),
      },
      firstMs,
    };
  } finally {
    for (const client of clients) await client.close();
    await runtime.close();
    await direct.close();
    await sandbox.close();
  }
}

const LABELS: Record<PathName, string> = {
  direct: 'direct client call',
  executor: 'executor, in process',
  echo: 'MCP round trip alone: echo, stdio',
  floor: 'floor: minimal SDK server, stdio',
  stdio: 'bankops MCP server, stdio',
};

/** The figures as the bench prints them: per path, then the ratios that matter. */
export function describeCalls(f: CallFigures, rounds: number, calls: number): string {
  const { direct, executor, echo, floor, stdio } = f.steady;
  const ms = (v: number): string => v.toFixed(3).padStart(6);
  const x = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
  const row = (name: PathName): string => {
    const p = f.steady[name];
    const server = name === 'direct' || name === 'executor' ? '     -' : ms(p.server);
    return `  ${LABELS[name].padEnd(33)} ${ms(p.wall)}  ${x(p.wall, direct.wall).padStart(6)}   ${ms(p.here)}   ${server}`;
  };
  const fresh = (p: PathFigures): string => `wall ${p.wall.toFixed(3)}, server CPU ${p.server.toFixed(3)}`;
  return [
    `read get_balances from one sandbox: ${rounds} interleaved rounds of ${calls} sequential calls, after ${f.warmup} warm-up calls of each path (medians)`,
    `  ${''.padEnd(33)}   wall  /direct   CPU ms/call: here (client + sandbox), server`,
    ...PATHS.map(row),
    `  stdio / direct ${x(stdio.wall, direct.wall)} (goal 1.5x); floor / direct ${x(floor.wall, direct.wall)}; bankops / floor ${x(stdio.wall, floor.wall)}`,
    `  the MCP round trip alone plus the direct call: ${x(echo.wall + direct.wall, direct.wall)} of the direct call`,
    `  server CPU above the floor: ${(stdio.server - floor.server).toFixed(3)} ms/call ` +
      `(the executor in process: ${(executor.here - direct.here).toFixed(3)} ms/call above the direct call)`,
    `a fresh server's first ${f.fresh.calls} calls, ms/call: bankops ${fresh(f.fresh.stdio)}; floor ${fresh(f.fresh.floor)}`,
    `first call: bankops ${f.firstMs.stdio.toFixed(0)} ms (builds its runtime), floor ${f.firstMs.floor.toFixed(0)} ms`,
  ].join('\n');
}
