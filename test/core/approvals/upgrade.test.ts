import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/app/runtime.js';
import { cliActor } from '../../../src/core/actors.js';
import { canonicalJson } from '../../../src/core/canonical-json.js';
import { migrate, openDatabase } from '../../../src/core/store/sqlite/database.js';
import { V1_APPROVALS, V1_EXECUTIONS } from '../../fixtures/v1-schema.js';
import { runtimeOptions, sqliteOf, testConfig } from '../../helpers/core.js';
import { type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

const PIN = '482913';
const dir = mkdtempSync(join(tmpdir(), 'bankops-v1-'));
const dbPath = join(dir, 'bankops.db');
let sandbox: RunningSandbox;
let runtime: Runtime;

const card = {
  cardholderId: 'chb_demo_alice',
  walletId: 'wal_demo_alice_usd',
  cardId: 'card_demo_alice_virtual',
  status: 'STOLEN',
};
const plainDigest = (actor: string, tool: string, input: unknown) =>
  createHash('sha256')
    .update(canonicalJson({ actor, tool, input: input as never }))
    .digest('hex');

/** What the first version left: a pending card block with one vote of two, and a keyed PIN reset. */
function writeVersionOne(): void {
  const db = openDatabase(dbPath);
  migrate(db, 'approvals-1', V1_APPROVALS);
  migrate(db, 'executor-1', V1_EXECUTIONS);
  const now = new Date();
  const requester = { id: 'cli:operator', frontEnd: 'cli', cliUser: 'operator' };
  db.prepare(
    `INSERT INTO approvals (id, tool, input_json, fingerprint, requester_id, requester_json, state,
       required_approvers, approver_role, policy_rule, policy_reason, request_id, created_at, updated_at, expires_at)
     VALUES ('apr_v1', 'update_card_status_b', ?, ?, 'cli:operator', ?, 'pending', 2, 'approver',
       'permanent-card-block', 'needs 2 approvers', 'apr_v1-1', ?, ?, ?)`,
  ).run(
    JSON.stringify(card),
    plainDigest('cli:operator', 'update_card_status_b', card),
    JSON.stringify(requester),
    now.toISOString(),
    now.toISOString(),
    new Date(now.getTime() + 3_600_000).toISOString(),
  );
  db.prepare(
    `INSERT INTO approval_votes (approval_id, approver_id, attempt, approver_json, voted_at)
     VALUES ('apr_v1', 'cli:bob', 1, ?, ?)`,
  ).run(JSON.stringify({ id: 'cli:bob', frontEnd: 'cli', cliUser: 'bob' }), now.toISOString());
  db.prepare(
    `INSERT INTO executions (actor, tool, idempotency_key, fingerprint, request_id, result_json, created_at)
     VALUES ('cli:operator', 'reset_pin_a', 'pin-1', ?, 'idem-1', '{}', ?)`,
  ).run(plainDigest('cli:operator', 'reset_pin_a', { cardId: 'card_v1', pin: PIN }), now.toISOString());
  db.close();
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  writeVersionOne();
  runtime = await createRuntime(testConfig(sandbox, { dbPath }), runtimeOptions());
});
afterAll(async () => {
  await runtime.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a database of the first version', () => {
  it('keeps a pending approval and its vote; each identity is its own person; it completes', async () => {
    const approval = await runtime.executor.getApproval('apr_v1');
    expect(approval).toMatchObject({
      state: 'pending',
      requesterPerson: 'cli:operator',
      origin: { frontEnd: 'cli', displayName: 'cli:operator' },
      approvals: [{ approver: 'cli:bob', person: 'cli:bob' }],
    });
    expect(await runtime.executor.approve('apr_v1', cliActor('bob'))).toMatchObject({ status: 'refused' });
    expect(await runtime.executor.approve('apr_v1', cliActor('carol'))).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded' },
    });
    expect((await runtime.audit.verify()).ok).toBe(true);
  });

  it('forgets the plain digest of an input that held a PIN, and its bytes', () => {
    const rows = sqliteOf(runtime).prepare("SELECT * FROM executions WHERE tool = 'reset_pin_a'").all();
    expect(rows).toEqual([]);
    const digest = plainDigest('cli:operator', 'reset_pin_a', { cardId: 'card_v1', pin: PIN });
    for (const file of [dbPath, `${dbPath}-wal`]) {
      let bytes = '';
      try {
        bytes = readFileSync(file).toString('latin1');
      } catch {
        continue;
      }
      expect(bytes.includes(digest), file).toBe(false);
    }
  });
});
