import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/core/clock.js';
import { optional } from '../../src/core/optional.js';

export const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON the CLI printed field by field
  json: any;
}

/** A home for CLI runs: its own database file, so the embedded sandbox state is the test's own. */
export function cliHome(): { env: Record<string, string>; dir: string; dbPath: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-cli-'));
  const dbPath = join(dir, 'bankops.db');
  return {
    env: { BANKOPS_DB: dbPath, BANKOPS_ACTOR: 'alice' },
    dir,
    dbPath,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The environment of a run: this process's, without any BANKOPS_ setting, plus `env`. */
export function cliEnv(env: Record<string, string>): Record<string, string | undefined> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('BANKOPS_')),
  );
  return { ...clean, ...env };
}

function parsed(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/**
 * Runs the CLI in this process (`main` of src/cli/main.ts) on the environment a binary run would
 * have, stdout and stderr captured as by a pipe (not a terminal). For tests of what a command says
 * and its exit status; tests of the binary itself (stdin, signals, servers) use runCli.
 */
export async function runCliHere(
  args: readonly string[],
  env: Record<string, string>,
  options: { clock?: Clock } = {},
): Promise<CliResult> {
  const { main } = await import('../../src/cli/main.js');
  let stdout = '';
  let stderr = '';
  const status = await main([...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: cliEnv(env),
    cwd: process.cwd(),
    ...optional('clock', options.clock),
  });
  if (status === 'running') throw new Error(`bankops ${args.join(' ')} started a server; use runCli`);
  return { code: status, stdout, stderr, json: parsed(stdout) };
}

/** Runs the built `bankops` binary (dist/cli.js, built by `npm test`) as a user would, stdout a pipe. */
export function runCli(
  args: readonly string[],
  env: Record<string, string>,
  options: { stdin?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { env: cliEnv(env), timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr, json: parsed(stdout) });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

/**
 * Runs a shell command line in a real pseudo-terminal (util-linux `script`), 160 columns wide;
 * `bankops` in it is the built binary. Returns what the terminal showed (stdout and stderr, as a
 * person sees them) as written, and `plain`: LF line ends, ANSI escapes removed; and the exit status.
 */
export function runInTerminal(
  line: string,
  env: Record<string, string>,
): Promise<{ code: number; screen: string; plain: string }> {
  const bankops = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)}`;
  const command = `stty cols 160 rows 60; bankops() { ${bankops} "$@"; }; ${line}`;
  return new Promise((resolve) => {
    execFile(
      'script',
      ['-qec', command, '/dev/null'],
      { env: cliEnv(env), timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes are what is removed
        const plain = stdout.replace(/\r\n/g, '\n').replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
        resolve({ code, screen: stdout, plain });
      },
    );
  });
}

/** `bankops call create_payout` of `amount` USD to the sandbox's SWIFT beneficiary in EUR: it waits for approval. */
export function payoutCall(amount: number): string[] {
  return [
    'call',
    'create_payout',
    'beneficiaryId=ben_de_swift_0001',
    'sourceAccountId=acc_usd_0001',
    'sourceAssetCode=USD',
    'destinationRail=SWIFT',
    `amount=${amount}`,
    'side=SOURCE',
    'purposeCode=GOODS_PURCHASED',
  ];
}
