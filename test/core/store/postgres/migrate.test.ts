import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../../../src/core/audit/hash.js';
import { AuditLog } from '../../../../src/core/audit/index.js';
import { migrate, schemaVersion } from '../../../../src/core/store/postgres/migrate.js';
import { runtimeGrantsSql } from '../../../../src/core/store/postgres/roles.js';
import { LATEST_VERSION, MIGRATIONS } from '../../../../src/core/store/postgres/schema/index.js';
import { postgresStorage } from '../../../../src/core/store/postgres/storage.js';
import { asServerAdmin, postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';

const TABLES = [
  'approval_events',
  'approval_votes',
  'approvals',
  'audit_flushes',
  'audit_log',
  'balance_alerts',
  'break_glass_reviews',
  'cards',
  'executions',
  'feed_cursors',
  'key_checks',
  'money_holds',
  'passkey_links',
  'passkeys',
  'payee_payouts',
  'payees',
  'policy_versions',
  'schedule_claims',
  'schema_version',
  'service_deliveries',
  'service_webhook_keys',
  'slack_approval_messages',
  'slack_outbox',
  'slack_pages',
  'slack_seen_events',
];

const auditRow = (seq: number, prevHash: string, hash: string): unknown[] => [
  seq,
  '2026-01-01T00:00:00.000Z',
  'cli:ops',
  'cli',
  'list_accounts',
  '{}',
  'allow',
  'executed',
  '[]',
  prevHash,
  hash,
];
const INSERT_AUDIT = `INSERT INTO audit_log (seq, ts, actor, front_end, tool, input, decision, event, request_ids,
  prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

const available = await postgresAvailable();

describe.skipIf(!available)('PostgreSQL migrations', () => {
  const db = useTestDatabase();
  const older = useTestDatabase();

  it('applies each version once when two replicas migrate at the same moment', async () => {
    const [a, b] = [db.store({ applicationName: 'replica-a' }), db.store({ applicationName: 'replica-b' })];
    expect(await schemaVersion(a)).toBe(0);
    const results = await Promise.all([migrate(a), migrate(b)]);
    expect(results.map((r) => r.applied).sort()).toEqual([[], MIGRATIONS.map((m) => m.version)]);
    expect(results.every((r) => r.to === LATEST_VERSION)).toBe(true);
    const versions = await a.pool.query('SELECT version FROM schema_version ORDER BY version');
    expect(versions.rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    const tables = await a.pool.query<{ t: string }>(
      "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    expect(tables.rows.map((r) => r.t)).toEqual(TABLES);
  });

  it('finds nothing to do on a database already at its version', async () => {
    expect(await migrate(db.store())).toEqual({ from: LATEST_VERSION, to: LATEST_VERSION, applied: [] });
  });

  it('appends to the audit chain only at its head, and refuses changes even from the owner', async () => {
    const store = db.store();
    await store.pool.query(INSERT_AUDIT, auditRow(1, GENESIS_HASH, 'a'.repeat(64)));
    await expect(
      store.pool.query(INSERT_AUDIT, auditRow(2, 'f'.repeat(64), 'b'.repeat(64))),
    ).rejects.toMatchObject({
      code: '23514',
    });
    await expect(
      store.pool.query(INSERT_AUDIT, auditRow(3, 'a'.repeat(64), 'b'.repeat(64))),
    ).rejects.toMatchObject({
      code: '23514',
    });
    await store.pool.query(INSERT_AUDIT, auditRow(2, 'a'.repeat(64), 'b'.repeat(64)));
    await expect(
      store.pool.query(INSERT_AUDIT, auditRow(2, 'a'.repeat(64), 'c'.repeat(64))),
    ).rejects.toMatchObject({
      code: '23505',
    });
    await expect(store.pool.query("UPDATE audit_log SET actor = 'x'")).rejects.toThrow(/append-only/);
    await expect(store.pool.query('DELETE FROM audit_log WHERE seq = 2')).rejects.toThrow(/append-only/);
    await expect(store.pool.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect((await store.pool.query('SELECT count(*)::int AS n FROM audit_log')).rows).toEqual([{ n: 2 }]);
  });

  it('turns the JSON columns of a version 5 database into json, each value kept as it was written', async () => {
    const store = older.store();
    await migrate(store, { migrations: MIGRATIONS.filter((m) => m.version <= 5) });
    await store.pool.query(
      `INSERT INTO approvals (id, tool, input_json, fingerprint, requester_id, requester_json, requester_person,
         origin_json, state, required_approvers, approver_role, policy_rule, policy_reason, request_id,
         created_at, updated_at, expires_at)
       VALUES ('apr_1', 'create_payout', '{"sourceAccountId":"acc_1","amount":10}', 'fp', 'cli:ops',
         '{"id":"cli:ops","frontEnd":"cli"}', 'ops', '{"frontEnd":"cli","displayName":"ops"}', 'pending', 1,
         'approver', 'payouts', 'payouts need one approver', 'apr_1-1', '2026-01-01T00:00:00Z',
         '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')`,
    );
    await store.pool.query(
      "INSERT INTO payees (id, record_json, updated_at) VALUES ('p1', '{\"name\":\"x\"}', 'now')",
    );
    expect((await migrate(store)).applied).toEqual(
      MIGRATIONS.map((m) => m.version).filter((version) => version >= 6),
    );
    const types = await store.pool.query<{ c: string; t: string }>(
      `SELECT table_name || '.' || column_name AS c, data_type AS t FROM information_schema.columns
       WHERE table_schema = 'public' AND (column_name LIKE '%\\_json' OR column_name = 'transports') ORDER BY 1`,
    );
    expect(types.rows.filter((row) => row.t !== 'json')).toEqual([]);
    expect(types.rows).toHaveLength(20);
    const approval = await postgresStorage(store).read((s) => s.approvals.byId('apr_1'));
    expect(Object.keys(approval?.input ?? {})).toEqual(['sourceAccountId', 'amount']);
    expect(approval).toMatchObject({ checkpoints: {}, requester: { id: 'cli:ops' }, preview: null });
    const payee = await store.pool.query("SELECT record_json::text AS t FROM payees WHERE id = 'p1'");
    expect(payee.rows).toEqual([{ t: '{"name":"x"}' }]);
  });

  it('refuses a database whose schema is newer than the code, changing nothing', async () => {
    const store = db.store();
    await store.pool.query("INSERT INTO schema_version (version, name) VALUES ($1, 'from the future')", [
      LATEST_VERSION + 1,
    ]);
    await expect(migrate(store)).rejects.toMatchObject({
      code: 'not_configured',
      message: expect.stringMatching(
        new RegExp(
          `schema version ${LATEST_VERSION + 1}, newer than this bankops knows \\(${LATEST_VERSION}\\)`,
        ),
      ),
    });
    expect(await schemaVersion(store)).toBe(LATEST_VERSION + 1);
  });
});

describe.skipIf(!available)('PostgreSQL roles', () => {
  const db = useTestDatabase();

  it('gives the runtime role every table but only INSERT and SELECT on the audit log', async () => {
    const owner = await db.createRole('owner');
    const runtime = await db.createRole('app');
    await asServerAdmin((admin) => admin.query(`ALTER DATABASE "${db.name}" OWNER TO "${owner}"`));
    const result = await migrate(db.store({ role: owner }), { runtimeRole: runtime });
    expect(result.applied).toEqual(MIGRATIONS.map((m) => m.version));

    const app = db.store({ role: runtime });
    expect((await app.pool.query('SELECT current_user AS u')).rows).toEqual([{ u: runtime }]);
    await app.pool.query(INSERT_AUDIT, auditRow(1, GENESIS_HASH, 'a'.repeat(64)));
    expect((await app.pool.query('SELECT seq FROM audit_log')).rows).toEqual([{ seq: 1 }]);
    for (const change of [
      "UPDATE audit_log SET actor = 'x'",
      'DELETE FROM audit_log',
      'TRUNCATE audit_log',
    ]) {
      await expect(app.pool.query(change), change).rejects.toMatchObject({ code: '42501' });
    }
    await expect(app.pool.query('ALTER TABLE audit_log DISABLE TRIGGER USER')).rejects.toMatchObject({
      code: '42501',
    });
    await expect(
      app.pool.query("INSERT INTO schema_version (version, name) VALUES (99, 'x')"),
    ).rejects.toMatchObject({
      code: '42501',
    });
    // The audit log's group commit (lock and head, batch insert, flush barrier) needs nothing more.
    const entry = await new AuditLog(postgresStorage(app)).append({
      actor: 'cli:ops',
      frontEnd: 'cli',
      tool: 'list_accounts',
      input: {},
      decision: 'allow',
      event: 'executed',
      outcome: 'ok',
      durationMs: 1,
    });
    expect(entry).toMatchObject({ seq: 2, prevHash: 'a'.repeat(64) });
    // Everything else: full DML.
    await app.pool.query("INSERT INTO payees (id, record_json, updated_at) VALUES ('p1', '{}', 'now')");
    await app.pool.query('UPDATE payees SET record_json = \'{"name":"x"}\' WHERE id = \'p1\'');
    await app.pool.query(
      "INSERT INTO slack_outbox (method, args_json, created_at, next_at) VALUES ('m', '{}', 0, 0)",
    );
    await app.pool.query('DELETE FROM slack_outbox');
    await app.pool.query("DELETE FROM payees WHERE id = 'p1'");
    // Up to date, the runtime role's start-up migration finds nothing to do; behind, it is told who must.
    expect((await migrate(app)).applied).toEqual([]);
    const next = { version: LATEST_VERSION + 1, name: 'next', statements: ['CREATE TABLE later (id int)'] };
    await expect(migrate(app, { migrations: [next] })).rejects.toMatchObject({
      code: 'not_configured',
      message: expect.stringContaining('run `bankops db migrate` as the role that owns the tables'),
    });
  });

  it('tells a role that was never granted (a copy made before --grant) how to fix it', async () => {
    const stranger = await db.createRole('stranger');
    await expect(migrate(db.store({ role: stranger }))).rejects.toMatchObject({
      code: 'not_configured',
      message: `${stranger} may not read the database at 127.0.0.1:5432/${db.name}: run \`bankops db migrate --grant ${stranger}\` as the role that owns the tables`,
    });
  });

  it('names roles only as plain identifiers, and the deploy guide quotes the grants', () => {
    const guide = readFileSync(new URL('../../../../docs/deploy.md', import.meta.url), 'utf8');
    expect(guide).toContain(runtimeGrantsSql('bankops_app'));
    expect(runtimeGrantsSql('bankops_app')).toContain(
      'REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM "bankops_app";',
    );
    expect(() => runtimeGrantsSql('app"; DROP TABLE audit_log; --')).toThrow(/not a usable role name/);
  });
});
