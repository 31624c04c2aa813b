import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON the CLI printed field by field
  json: any;
}

/** A home for CLI runs: its own database file, so the embedded sandbox state is the test's own. */
export function cliHome(): { env: Record<string, string>; dbPath: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-cli-'));
  const dbPath = join(dir, 'bankops.db');
  return {
    env: { BANKOPS_DB: dbPath, BANKOPS_ACTOR: 'alice' },
    dbPath,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs the built `bankops` binary (dist/cli.js, built by `npm test`) as a user would. */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('BANKOPS_')),
    );
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...clean, ...env }, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr, json });
      },
    );
  });
}
