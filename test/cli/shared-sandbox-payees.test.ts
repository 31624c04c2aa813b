import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/approvals.js';
import { CLI, cliEnv, cliHome, payoutCall, runCli } from '../helpers/cli.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../helpers/postgres.js';

const available = await postgresAvailable();

/**
 * The documented replica setup (docs/deploy.md): PostgreSQL and one separate `bankops sandbox`
 * that every replica points at. The first process that sees that sandbox names its seeded payees in
 * the database, so an approval says "Rhein Maschinenbau GmbH" as the single-process setup does,
 * and no cooling-off starts for them.
 */
describe.skipIf(!available)('payees of a separate bankops sandbox, on PostgreSQL', () => {
  const database = useTestDatabase();
  let sandboxHome: ReturnType<typeof cliHome>;
  let replicaHome: ReturnType<typeof cliHome>;
  let sandbox: ChildProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandboxHome = cliHome();
    replicaHome = cliHome();
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0'], {
      env: cliEnv(sandboxHome.env),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    sandbox = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const registration = join(sandboxHome.dir, 'bankops.sandbox.json');
    await until(() => existsSync(registration) || child.exitCode !== null, 'the sandbox to register');
    if (child.exitCode !== null) throw new Error(`bankops sandbox exited: ${stderr}`);
    const { url } = JSON.parse(readFileSync(registration, 'utf8')) as { url: string };
    env = {
      ...replicaHome.env,
      BANKOPS_DATABASE_URL: database.url(),
      BANKOPS_FINGERPRINT_KEY_FILE: writeFingerprintKey(replicaHome.dir),
      BANKOPS_BASE_URL: url,
      BANKOPS_OUTPUT: 'text',
      COLUMNS: '200',
    };
  });
  afterAll(async () => {
    if (sandbox !== undefined && sandbox.exitCode === null) {
      const exited = once(sandbox, 'exit');
      sandbox.kill('SIGTERM');
      await exited;
    }
    sandboxHome?.cleanup();
    replicaHome?.cleanup();
  });

  it('names the seeded payee in an approval, without a cooling-off', async () => {
    const asked = await runCli([...payoutCall(140), '--json'], env);
    expect(asked.json?.status, asked.stderr).toBe('pending_approval');
    const id = asked.json.approvalId as string;
    const shown = await runCli(['approvals', 'show', id], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('to Rhein Maschinenbau GmbH (DE, EUR, SWIFT), ben_de_swift_0001');
    expect(shown.stdout).not.toContain('a payee bankops did not create');
    expect(shown.stdout).not.toMatch(/cooling-off/i);
    // Another process on the same database finds it named (and leaves it as it is).
    const second = await runCli([...payoutCall(141), '--json'], env);
    expect(second.json?.status, second.stderr).toBe('pending_approval');
    const next = await runCli(['approvals', 'show', second.json.approvalId as string], env);
    expect(next.stdout).toContain('to Rhein Maschinenbau GmbH (DE, EUR, SWIFT), ben_de_swift_0001');
  });
});
