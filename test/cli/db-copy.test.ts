import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/core/audit/index.js';
import { auditHead, auditRowsAfter } from '../../src/core/store/postgres/audit.js';
import { verifyAuditLog } from '../../src/core/store/postgres/audit-verify.js';
import { postgresCards } from '../../src/core/store/postgres/cards.js';
import { COPIED_TABLES, type CopiedTable } from '../../src/core/store/postgres/copy-tables.js';
import { appendFeedEvent, eventsOf, readFeed } from '../../src/core/store/postgres/feed.js';
import { groupPosition } from '../../src/core/store/postgres/feed-group.js';
import { postgresPayees } from '../../src/core/store/postgres/payees.js';
import type { PgStore } from '../../src/core/store/postgres/pool.js';
import { withTransaction } from '../../src/core/store/postgres/transaction.js';
import { postgresWebhookKeys } from '../../src/core/store/postgres/webhook-keys.js';
import { sqliteCards } from '../../src/core/store/sqlite/cards.js';
import { type Db, openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqlitePayees } from '../../src/core/store/sqlite/payees.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { sqliteWebhookKeys } from '../../src/core/store/sqlite/webhook-keys.js';
import { postgresSlackStores } from '../../src/slack/store/postgres/index.js';
import { sqliteSlackStores } from '../../src/slack/store/sqlite/index.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { sampleEntry, tempDir } from '../helpers/audit.js';
import { runCliHere } from '../helpers/cli.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';
import { feedEvent, readUntil } from '../helpers/postgres-rows.js';
import { fillSlackStores, SLACK_IDS } from '../helpers/sqlite-deployment.js';

/**
 * `bankops db copy`: a SQLite deployment made by real use (approvals opened and voted through the
 * executor against the sandbox, audited reads, the Slack front end's stores) moved into PostgreSQL,
 * then read back through the PostgreSQL store modules.
 */

const available = await postgresAvailable();

/**
 * A row as SQLite keeps it: a timestamptz as ISO text, or as milliseconds where the SQLite column
 * is a number (`-infinity`, a claim never taken, as 0); a boolean as 0 or 1.
 */
function plain(table: CopiedTable, row: Record<string, unknown>): Record<string, unknown> {
  const value = (column: string, v: unknown): unknown => {
    const millis = table.types?.[column] === 'bigint';
    if (v === Number.NEGATIVE_INFINITY) return 0;
    if (v instanceof Date) return millis ? v.getTime() : v.toISOString();
    // JSON: text in SQLite, parsed by the driver from PostgreSQL's `json`.
    if (table.json?.includes(column) && typeof v === 'string') return JSON.parse(v);
    return typeof v === 'boolean' ? Number(v) : v;
  };
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, value(k, v)]));
}

describe.skipIf(!available)('bankops db copy', () => {
  const database = useTestDatabase();
  let core: TestCore;
  let db: Db;
  let pg: PgStore;
  let env: Record<string, string>;
  let copy: Awaited<ReturnType<typeof runCliHere>>;

  beforeAll(async () => {
    core = await createTestCore();
    const done = pending(await core.call('create_payout', PAYOUT));
    await core.executor.approve(done.id, core.approver);
    pending(await core.call('create_payout', { ...PAYOUT, amount: 20 }));
    const rejected = pending(await core.call('create_payout', { ...PAYOUT, amount: 30 }));
    await core.executor.reject(rejected.id, core.approver, 'wrong payee');
    for (let i = 0; i < 5; i += 1) await core.ok('list_accounts');
    const { storage } = core.runtime;
    const at = new Date().toISOString();
    await storage.transaction(async (tx) => {
      await tx.feed.advance('slack-poster', 2, at);
      await tx.executions.reserve('cli:operator', 'create_conversion', 'conv-1', 'fp-1', 'req-1');
      await tx.executions.finish('cli:operator', 'create_conversion', 'conv-1', {
        status: 'ok',
        tool: 'create_conversion',
        output: { ok: true },
        requestId: 'req-1',
      });
      await tx.credentials.insert({
        credentialId: 'cred-1',
        person: 'approver',
        name: 'laptop',
        publicKey: 'pk',
        counter: 3,
        transports: ['internal'],
        createdAt: at,
      });
      await tx.claims.claim('reminder:apr_1:1', 'host:1', new Date(at));
      await tx.breakGlass.insert({
        approvalId: done.id,
        person: 'ada',
        actorId: 'cli:ada',
        reason: 'approvers unreachable',
        at,
        needed: 2,
        role: 'admin',
        closers: [{ person: 'bob', actorId: 'cli:bob', reason: 'checked', at }],
      });
      await tx.alerts.add({
        id: 'alr_0123456789',
        currency: 'EUR',
        thresholdMinor: 2_000_050,
        channel: 'C0TREASURY',
        createdBy: 'cli:operator',
        createdAt: at,
        level: 'below',
        readFailing: true,
        posts: 2,
        checkedAt: at,
      });
    });
    await core.runtime.audit.flush();
    db = core.db;
    await sqlitePayees(db).remember({ id: 'ben_x', name: 'Rhein GmbH', country: 'DE', rail: 'SWIFT' });
    await sqliteCards(db).remember([
      { cardId: 'card_1', cardholderId: 'ch_1', walletId: 'w_1', lastFour: '4242' },
    ]);
    await sqliteWebhookKeys(db).add('digest-1', {
      eventName: 'PAYOUT_UPDATED',
      channel: 'C1',
      createdBy: 'ops',
    });
    await fillSlackStores(sqliteSlackStores(db));
    pg = database.store();
    env = { BANKOPS_DB: core.dbPath };
  });
  afterAll(async () => {
    await core.close();
  });

  it('says what is wrong with its arguments', async () => {
    const extra = await runCliHere(['db', 'copy', '--to', 'postgres://ops@127.0.0.1:1/bank', 'extra'], env);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain("db copy takes only --to postgres://…, not 'extra'");
  });

  it('refuses to finish when the chain does not verify, leaving the target empty', async () => {
    const broken = join(dirname(core.dbPath), 'broken.db');
    core.db.exec(`VACUUM INTO '${broken}'`);
    const tampered = openDatabase(broken);
    tampered.exec('DROP TRIGGER audit_log_no_update');
    tampered.prepare("UPDATE audit_log SET actor = 'cli:mallory' WHERE seq = 2").run();
    tampered.close();
    const run = await runCliHere(['db', 'copy', '--to', database.url()], { BANKOPS_DB: broken });
    rmSync(broken);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^bankops: the audit chain does not verify on PostgreSQL \(entry 2: .*\); nothing was copied$/m,
    );
    const left = await pg.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM approvals');
    expect(left.rows[0]?.n).toBe(0);
  });

  it('run as the runtime role, says in one line to run it as the owner, and copies nothing', async () => {
    const role = await database.createRole('copy_runtime');
    const granted = await runCliHere(['db', 'migrate', '--url', database.url(), '--grant', role], env);
    expect(granted.code, granted.stderr).toBe(0);
    const run = await runCliHere(['db', 'copy', '--to', database.url(role)], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `bankops: db copy must run as the role that owns the tables at 127.0.0.1:5432/${database.name} (the one that runs bankops db migrate): give --to that role's URL; nothing was copied (permission denied for table audit_log)\n`,
    );
    const left = await pg.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM approvals');
    expect(left.rows[0]?.n).toBe(0);
  });

  it('copies every table in one transaction, says so per table, and verifies the chain', async () => {
    copy = await runCliHere(['db', 'copy', '--to', database.url()], env);
    expect(copy.code, copy.stderr).toBe(0);
    for (const { name } of COPIED_TABLES) {
      const rows = (db.prepare(`SELECT count(*) AS n FROM ${name}`).get() as { n: number }).n;
      expect(copy.stderr).toContain(`copy: ${name} ${rows} of ${rows} rows\n`);
      expect(copy.stdout).toMatch(new RegExp(`^  ${name} +${rows}$`, 'm'));
    }
    // Every store has something to copy but one-time links (made only by the passkey pages); the
    // payouts' money holds are kept whatever the policy counts.
    expect(copy.stdout).toMatch(/^ {2}passkey_links +0$/m);
    expect(copy.stdout).toMatch(/^ {2}money_holds +[1-9]\d*$/m);
    expect(copy.stdout.match(/^ {2}[a-z_]+ +[1-9]\d*$/gm)).toHaveLength(COPIED_TABLES.length - 1);
    expect(copy.stdout).toMatch(/^audit chain verified on PostgreSQL: \d+ entries, head \d+ [0-9a-f]{64}$/m);
  });

  it('holds the same rows in every table', async () => {
    for (const table of COPIED_TABLES) {
      const key = table.columns[0] as string;
      const order = `${key}${table.name === 'approval_votes' ? ', attempt, person' : ''}${table.name === 'executions' ? ', tool, idempotency_key' : ''}`;
      const sqlite = db
        .prepare(`SELECT ${table.columns.join(', ')} FROM ${table.name} ORDER BY ${order}`)
        .all();
      const copied = await pg.pool.query(
        `SELECT ${table.columns.join(', ')} FROM ${table.name} ORDER BY ${order}`,
      );
      expect(
        copied.rows.map((row) => plain(table, row)),
        table.name,
      ).toEqual(sqlite.map((row) => plain(table, row as Record<string, unknown>)));
    }
    const counts = Object.fromEntries(
      COPIED_TABLES.map((t) => [
        t.name,
        (db.prepare(`SELECT count(*) AS n FROM ${t.name}`).get() as { n: number }).n,
      ]),
    );
    expect(counts.approvals).toBe(3);
    expect(counts.audit_log).toBeGreaterThan(10);
    expect(counts.slack_outbox).toBeGreaterThan(0);
  });

  it('reads back through the PostgreSQL stores: audit chain, feed and cursor, directories, Slack', async () => {
    const sqliteAudit = await core.runtime.audit.verify();
    const verified = await verifyAuditLog(pg.pool);
    expect(verified).toEqual(sqliteAudit);
    expect(await auditRowsAfter(pg.pool, 0, 1_000_000)).toEqual(
      db.prepare('SELECT * FROM audit_log ORDER BY seq').all(),
    );
    expect((await auditHead(pg.pool)).seq).toBe(verified.ok ? verified.headSeq : -1);

    const approvalIds = (db.prepare('SELECT id FROM approvals ORDER BY id').all() as { id: string }[]).map(
      (r) => r.id,
    );
    for (const id of approvalIds) {
      const events = (await eventsOf(pg.pool, id)).map(({ position: _, ...event }) => event);
      expect(events).toEqual(
        await core.runtime.storage.read(async (s) =>
          (await s.feed.after(0, 1000)).filter((e) => e.approvalId === id),
        ),
      );
    }
    // The group's cursor still stands after seq 2: what a reader gets next is every later event.
    const position = await groupPosition(pg.pool, 'slack-poster');
    expect(position?.seq).toBe(2);
    const total = (db.prepare('SELECT count(*) AS n FROM approval_events').get() as { n: number }).n;
    const next = await readUntil(
      () => readFeed(pg.pool, position ?? { xid: '0', seq: 0 }, 1000),
      (events) => events.length === total - 2,
    );
    expect(next.map((e) => e.seq)).toEqual(Array.from({ length: total - 2 }, (_, i) => i + 3));
    // New events continue the numbering.
    const appended = await withTransaction(pg, (client) =>
      appendFeedEvent(client, feedEvent(approvalIds[0] as string)),
    );
    expect(appended.seq).toBe(total + 1);

    expect(await postgresPayees(pg).ids()).toEqual(await sqlitePayees(db).ids());
    expect(await postgresPayees(pg).get('ben_x')).toEqual(await sqlitePayees(db).get('ben_x'));
    expect(await postgresCards(pg).find('card_1')).toEqual(await sqliteCards(db).find('card_1'));
    expect(await postgresWebhookKeys(pg).all()).toEqual(await sqliteWebhookKeys(db).all());

    const slack = postgresSlackStores(pg);
    const local = sqliteSlackStores(db);
    expect(await slack.answers.get(SLACK_IDS.answer)).toEqual(await local.answers.get(SLACK_IDS.answer));
    expect(await slack.seenEvents.record(SLACK_IDS.event, Date.now())).toBe(false);
    expect(await slack.deliveries.accept(SLACK_IDS.delivery, [])).toBe(false);
    expect(await slack.approvalMessages.get(SLACK_IDS.message)).toEqual(
      await local.approvalMessages.get(SLACK_IDS.message),
    );
    expect(await slack.outbox.pending()).toBe(await local.outbox.pending());
    const now = Date.now() + 60_000;
    const head = await slack.outbox.claimHead(now, now + 10_000);
    expect(head).toEqual(await local.outbox.claimHead(now, now + 10_000));
    const added = await slack.outbox.add(
      [{ method: 'chat.postMessage', args: { channel: 'C1', text: 'after' } }],
      now,
    );
    const max = (db.prepare('SELECT max(id) AS m FROM slack_outbox').get() as { m: number }).m;
    expect(added).toBeGreaterThan(0);
    const ids = await pg.pool.query<{ id: number }>('SELECT max(id) AS id FROM slack_outbox');
    expect(ids.rows[0]?.id).toBe(max + 1);
  });

  it('refuses a second copy into the database that now has rows, naming the table', async () => {
    const again = await runCliHere(['db', 'copy', '--to', database.url()], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `bankops: the database at 127.0.0.1:5432/${database.name} is not empty (approvals has rows): db copy fills an empty one\n`,
    );
  });
});

describe.skipIf(!available)('bankops db copy of a deployment that never ran Slack', () => {
  const database = useTestDatabase();
  const tmp = tempDir('bankops-copy-');
  afterAll(() => tmp.cleanup());

  it('copies the core alone, the stores never used as empty, into a database with no tables', async () => {
    const file = join(tmp.dir, 'core.db');
    const db = openDatabase(file);
    const audit = new AuditLog(sqliteStorage(db));
    for (let i = 0; i < 3; i += 1) await audit.append(sampleEntry(i));
    db.close();
    const run = await runCliHere(['db', 'copy', '--to', database.url()], { BANKOPS_DB: file });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`copy: migrated 127.0.0.1:5432/${database.name} to schema version`);
    expect(run.stderr).toContain('copy: slack_outbox 0 of 0 rows\n');
    expect(run.stdout).toMatch(/^ {2}audit_log +3$/m);
    expect(run.stdout).toMatch(/^ {2}slack_outbox +0$/m);
    expect(await verifyAuditLog(database.store().pool)).toMatchObject({ ok: true, entries: 3 });
  });

  it('refuses a file with an older table, saying to migrate it first', async () => {
    const file = join(tmp.dir, 'old.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE payees (id TEXT PRIMARY KEY, record_json TEXT NOT NULL)');
    db.close();
    const run = await runCliHere(['db', 'copy', '--to', database.url()], { BANKOPS_DB: file });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `bankops: ${file}: payees has no updated_at: run \`bankops db migrate\` on it first (BANKOPS_DATABASE_URL unset)\n`,
    );
  });
});

describe.skipIf(!available)('two copies started at once', () => {
  const database = useTestDatabase();
  const tmp = tempDir('bankops-copy-twice-');
  afterAll(() => tmp.cleanup());

  it('one copies; the other waits for its lock, then finds rows and is refused', async () => {
    const file = join(tmp.dir, 'bankops.db');
    const db = openDatabase(file);
    const audit = new AuditLog(sqliteStorage(db));
    for (let i = 0; i < 20; i += 1) await audit.append(sampleEntry(i));
    db.close();
    await runCliHere(['db', 'migrate', '--url', database.url()], { BANKOPS_DB: file });
    const runs = await Promise.all([
      runCliHere(['db', 'copy', '--to', database.url()], { BANKOPS_DB: file }),
      runCliHere(['db', 'copy', '--to', database.url()], { BANKOPS_DB: file }),
    ]);
    expect(runs.map((run) => run.code).sort()).toEqual([0, 1]);
    const refused = runs.find((run) => run.code === 1);
    expect(refused?.stderr).toMatch(/is not empty \(audit_log has rows\): db copy fills an empty one\n$/);
    const rows = await database.store().pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    expect(rows.rows[0]?.n).toBe(20);
  });
});

describe.runIf(process.platform === 'linux')(
  'bankops db copy while another process has the file open',
  () => {
    const tmp = tempDir('bankops-copy-open-');
    afterAll(() => tmp.cleanup());

    it('refuses, naming the process, and copies nothing; once it is gone the copy goes on to the target', async () => {
      const file = join(tmp.dir, 'open.db');
      openDatabase(file).close();
      // Named through a symlinked directory: the process's open file is found by its real path.
      const linked = join(tmp.dir, 'linked');
      symlinkSync(tmp.dir, linked);
      const through = join(linked, 'open.db');
      // A process that keeps the file open, as a serve that was not stopped would.
      const holder = spawn(process.execPath, [
        '-e',
        `require('node:fs').openSync(${JSON.stringify(file)}, 'r'); console.log('open'); setInterval(() => {}, 1000)`,
      ]);
      try {
        await once(createInterface({ input: holder.stdout }), 'line');
        const target = 'postgres://ops@127.0.0.1:1/none';
        const refused = await runCliHere(['db', 'copy', '--to', target], { BANKOPS_DB: through });
        expect(refused.code).toBe(1);
        // Its program's name, never its arguments (a command line may hold a password).
        expect(refused.stderr).toContain(`bankops: ${through} is open in pid ${holder.pid} (node)`);
        expect(refused.stderr).not.toContain('openSync');
        expect(refused.stderr).toContain('stop every process using it first');
        holder.kill();
        await once(holder, 'exit');
        // Nothing holds it now: the copy goes on, and meets the (unreachable) target.
        const next = await runCliHere(['db', 'copy', '--to', target], { BANKOPS_DB: file });
        expect(next.stderr).not.toContain('is open in');
        expect(next.stderr).toContain('cannot reach its database at 127.0.0.1:1/none');
      } finally {
        holder.kill();
      }
    });
  },
);
