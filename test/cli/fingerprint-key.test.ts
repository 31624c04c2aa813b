import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/app/runtime.js';
import { cliActor } from '../../src/core/actors.js';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { runCliHere } from '../helpers/cli.js';
import { runtimeOptions, sqliteOf, testConfig } from '../helpers/core.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

/** BANKOPS_FINGERPRINT_KEY_FILE: one key for every replica, kept outside the database and beside it. */

let dir: string;
let sandbox: RunningSandbox;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bankops-key-'));
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function keyFile(name: string, content: string, mode = 0o600): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

/** The fingerprint an execution with a secret input got, on a database of its own. */
async function fingerprintOn(dbName: string, file: string): Promise<string> {
  const dbPath = join(dir, dbName);
  const config = { ...testConfig(sandbox, { dbPath }), fingerprintKeyFile: file };
  const runtime = await createRuntime(config, runtimeOptions());
  try {
    const result = await runtime.executor.execute({
      tool: 'reset_pin_a',
      input: { cardId: 'card_demo_ava_physical', pin: '482913' },
      actor: cliActor('operator'),
      idempotencyKey: 'reset-1',
    });
    expect(result.status).toBe('ok');
    const row = sqliteOf(runtime)
      .prepare("SELECT fingerprint FROM executions WHERE idempotency_key = 'reset-1'")
      .get() as { fingerprint: string };
    return row.fingerprint;
  } finally {
    await runtime.close();
  }
}

describe('the fingerprint key beside the database', () => {
  it('is made on a new machine, with the data directory, private, before the database exists', async () => {
    const dbPath = join(dir, 'new-home', '.local', 'share', 'bankops', 'bankops.db');
    const runtime = await createRuntime(testConfig(sandbox, { dbPath }), runtimeOptions());
    await runtime.close();
    const keyPath = join(dir, 'new-home', '.local', 'share', 'bankops', 'bankops.key');
    expect(existsSync(keyPath)).toBe(true);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'new-home', '.local', 'share', 'bankops')).mode & 0o777).toBe(0o700);
  });
});

describe('the fingerprint key from BANKOPS_FINGERPRINT_KEY_FILE', () => {
  it('keys the fingerprints of every replica alike, and no key is made beside the database', async () => {
    const key = randomBytes(32).toString('hex');
    const file = keyFile('shared.key', `${key}\n`);
    const first = await fingerprintOn('replica-1.db', file);
    const second = await fingerprintOn('replica-2.db', file);
    expect(second).toBe(first);
    const input = { cardId: 'card_demo_ava_physical', pin: '482913' };
    expect(first).toBe(
      `k1:${createHmac('sha256', Buffer.from(key, 'hex'))
        .update(canonicalJson({ actor: 'cli:operator', tool: 'reset_pin_a', input }))
        .digest('hex')}`,
    );
    expect(existsSync(join(dir, 'replica-1.key'))).toBe(false);
  });

  it('refuses a key file that is missing, too short or readable by every user, naming it and not its content', async () => {
    const secret = 'ab'.repeat(20);
    const cases = [
      { file: join(dir, 'absent.key'), says: 'does not exist' },
      { file: keyFile('short.key', secret), says: 'at least 64 hex characters' },
      { file: keyFile('text.key', 'not a key at all, not hex'), says: 'at least 64 hex characters' },
      { file: keyFile('open.key', 'cd'.repeat(32), 0o644), says: 'chmod 600' },
    ];
    for (const { file, says } of cases) {
      const run = await runCliHere(['call', 'get_balances'], {
        BANKOPS_DB: join(dir, 'cli.db'),
        BANKOPS_FINGERPRINT_KEY_FILE: file,
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`BANKOPS_FINGERPRINT_KEY_FILE ${file}`);
      expect(run.stderr).toContain(says);
      expect(run.stderr).not.toContain(secret);
      expect(run.stderr).not.toContain('cd'.repeat(32));
    }
  });

  it('is listed by bankops config check', async () => {
    const run = await runCliHere(['config', 'check'], { BANKOPS_DB: join(dir, 'cli.db') });
    expect(run.stdout).toContain('BANKOPS_FINGERPRINT_KEY_FILE');
  });
});
