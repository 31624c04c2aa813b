import { execSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { cliActor } from '../../src/core/actors.js';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { runtimeOptions, testConfig } from '../helpers/core.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

/**
 * A database written by version 1 (commit f3591a5, schema approvals-1), by that version's own code
 * in its own process, then opened by this version: nothing derived from a PIN may stay readable,
 * and what was pending goes on.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const V1 = 'f3591a5';
const PIN = '482913';

// Runs in the version-1 tree: a PIN reset with an idempotency key (the v1 fingerprint keeps the raw
// PIN in its hash), and a large payout approved by one of its two approvers.
const WRITER = `
import { createRuntime } from '../../src/app/runtime.js';
import { cliActor } from '../../src/core/actors.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { runtimeOptions, testConfig } from './core.js';
const [dbPath, url] = process.argv.slice(2);
const runtime = await createRuntime(testConfig({ url, credentials: SANDBOX_DEFAULTS }, { dbPath }), runtimeOptions());
const { executor } = runtime;
await executor.execute({ tool: 'reset_pin_a', input: { cardId: 'card_v1_0001', pin: '${PIN}' }, actor: cliActor('operator'), idempotencyKey: 'pin-1' });
const payout = { beneficiaryId: 'ben_us_ach_0001', sourceAccountId: 'acc_usd_0001', sourceAssetCode: 'USD', destinationRail: 'ACH', amount: 50000, side: 'SOURCE', purposeCode: 'GOODS_PURCHASED' };
const opened = await executor.execute({ tool: 'create_payout', input: payout, actor: cliActor('operator') });
if (opened.status !== 'pending_approval') throw new Error(JSON.stringify(opened));
const vote = await executor.approve(opened.approvalId, cliActor('approver'));
process.stdout.write(JSON.stringify({ approvalId: opened.approvalId, vote: vote.status }));
await runtime.close();
`;

let dir: string;
let sandbox: RunningSandbox;
let runtime: Runtime;
let written: { approvalId: string; vote: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bankops-v1-'));
  const tree = join(dir, 'v1');
  mkdirSync(tree);
  execSync(`git -C ${ROOT} archive ${V1} | tar -x -C ${tree}`);
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  writeFileSync(join(tree, 'test/helpers/v1-writer.ts'), WRITER);
  sandbox = await startTestSandbox();
  const dbPath = join(dir, 'bankops.db');
  // Asynchronous: the sandbox answering it runs in this process.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/helpers/v1-writer.ts', dbPath, sandbox.url],
    {
      cwd: tree,
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`version 1 failed: ${stderr}`);
  written = JSON.parse(stdout) as typeof written;
  runtime = await createRuntime(testConfig(sandbox, { dbPath }), runtimeOptions());
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('review: a version-1 database opened by version 2', () => {
  it('keeps the pending approval and its vote, and the chain verifies', async () => {
    expect(written.vote).toBe('ok');
    const approval = runtime.executor.getApproval(written.approvalId);
    expect(approval).toMatchObject({ state: 'pending', approvals: [{ approver: 'cli:approver' }] });
    const done = await runtime.executor.approve(written.approvalId, cliActor('approver2'));
    expect(done).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    expect(runtime.audit.verify().ok).toBe(true);
  });

  it('leaves nothing in bankops.db from which the PIN a v1 call carried can be recovered', () => {
    const rows = runtime.db.prepare('SELECT actor, tool, fingerprint FROM executions').all() as {
      actor: string;
      tool: string;
      fingerprint: string;
    }[];
    expect(rows.length).toBeGreaterThan(0);
    const recovered: string[] = [];
    for (const row of rows) {
      // The v1 fingerprint: SHA-256 of the canonical request, raw PIN included; try every PIN.
      for (let n = 0; n < 1_000_000; n += 1) {
        const pin = String(n).padStart(6, '0');
        const text = canonicalJson({
          actor: row.actor,
          tool: row.tool,
          input: { cardId: 'card_v1_0001', pin },
        });
        if (createHash('sha256').update(text).digest('hex') === row.fingerprint) {
          recovered.push(pin);
          break;
        }
      }
    }
    expect(recovered).toEqual([]);
  }, 30_000);
});
