import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ApprovalView } from '../../src/core/approvals/index.js';
import type { ExecuteResult } from '../../src/core/results.js';
import type { TestCore } from './core.js';

/** 1,000 USD from the USD account to the seeded EUR SWIFT payee: total debit 1,026.00 USD. */
export const PAYOUT = {
  beneficiaryId: 'ben_de_swift_0001',
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  destinationRail: 'SWIFT',
  amount: 1000,
  side: 'SOURCE',
  purposeCode: 'GOODS_PURCHASED',
} as const;
/** 1,000 + SWIFT fees 15 + 10 + platform fee 0.1 % (docs/sandbox.md). */
export const PAYOUT_DEBIT = 1026;

/** The approval a `pending_approval` result carries; fails the test with the result otherwise. */
export function pending(result: ExecuteResult): ApprovalView {
  if (result.status !== 'pending_approval')
    throw new Error(`expected pending_approval: ${JSON.stringify(result)}`);
  return result.approval;
}

/** Available balance of one currency (accounts of a currency share it). */
export async function available(core: TestCore, currency = 'USD'): Promise<number> {
  const { balances } = await core.client.accounts.balances({
    companyCode: core.sandbox.credentials.companyId,
  });
  const entry = balances.find((b) => b.currency === currency);
  if (entry === undefined) throw new Error(`no ${currency} balance`);
  return entry.availableBalance;
}

export const creates = (core: TestCore, operation = 'payouts.create'): number =>
  core.sandbox.stats()[operation] ?? 0;

export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 60_000,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const CHILD = fileURLToPath(new URL('./approval-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Child {
  process: ChildProcess;
  pid: number;
  send(
    command:
      | { cmd: 'approve'; id: string; as: string }
      | { cmd: 'recover' }
      | { cmd: 'call'; tool: string; input: unknown; as: string },
  ): void;
  /** The next answer line (after the ones already taken). */
  next(): Promise<Record<string, unknown>>;
  output(): string;
  kill(): Promise<void>;
}

/** A second bankops process on the same database (file, or PostgreSQL by `env`) and sandbox (see approval-child.ts). */
export async function startChild(
  core: Pick<TestCore, 'dbPath' | 'sandbox'>,
  options: { policyFile?: string; owner?: string; env?: Record<string, string> } = {},
): Promise<Child> {
  const args = [
    '--import',
    'tsx',
    CHILD,
    core.dbPath,
    core.sandbox.url,
    ...(options.policyFile ? [options.policyFile] : []),
  ];
  const env = {
    ...process.env,
    ...(options.owner ? { APPROVAL_CHILD_OWNER: options.owner } : {}),
    ...options.env,
  };
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let taken = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const answers = () => stdout.split('\n').filter((line) => line.trim() !== '');
  const next = async (ms?: number): Promise<Record<string, unknown>> => {
    await until(() => answers().length > taken || child.exitCode !== null, 'an answer from the child', ms);
    const line = answers()[taken];
    if (line === undefined) throw new Error(`the child exited: ${stderr}`);
    taken += 1;
    return JSON.parse(line) as Record<string, unknown>;
  };
  // Its start compiles and loads the whole runtime (about 4 s of one core); several children start
  // at once, beside other test files: a minute before it counts as not started.
  const ready = await next(60_000);
  if (ready.ready !== true) throw new Error(`the child did not start: ${stderr}`);
  return {
    process: child,
    pid: ready.pid as number,
    send: (command) => {
      child.stdin.write(`${JSON.stringify(command)}\n`);
    },
    next,
    output: () => `${stdout}\n${stderr}`,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      // Only after 'exit' has the child been reaped; until then `kill(pid, 0)` still finds it.
      await exited;
    },
  };
}

/** Injects a fault on the next `times` POSTs to `path` (docs/sandbox.md, `/_sandbox/faults`). */
export async function fault(
  core: Pick<TestCore, 'sandbox'>,
  path: string,
  effect: { latencyMs?: number; status?: number },
  times = 1,
): Promise<void> {
  const response = await fetch(`${core.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path, method: 'POST', ...effect, times }),
  });
  if (!response.ok) throw new Error(`fault injection failed: ${await response.text()}`);
}

/** Makes the next `times` POSTs to `path` slow at the sandbox. */
export const slowDown = (
  core: Pick<TestCore, 'sandbox'>,
  path: string,
  latencyMs: number,
  times = 1,
): Promise<void> => fault(core, path, { latencyMs }, times);
