import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../../src/core/audit/index.js';
import { type Prepared, prepareEntry, sealAfter } from '../../../../src/core/audit/seal.js';
import { canonicalJson } from '../../../../src/core/canonical-json.js';
import { auditHead } from '../../../../src/core/store/postgres/audit.js';
import { verifyAuditLog } from '../../../../src/core/store/postgres/audit-verify.js';
import { PgAuditStore } from '../../../../src/core/store/postgres/core/audit.js';
import { LockKey } from '../../../../src/core/store/postgres/locks.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../../../src/core/store/postgres/pool.js';
import { postgresStorage } from '../../../../src/core/store/postgres/storage.js';
import { openDatabase } from '../../../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../../../src/core/store/sqlite/storage.js';
import { sampleEntry, steppingClock } from '../../../helpers/audit.js';
import { planNodes, postgresAvailable, reportedPlans, useTestDatabase } from '../../../helpers/postgres.js';

const available = await postgresAvailable();

describe.skipIf(!available)('the audit chain on PostgreSQL', () => {
  const db = useTestDatabase();
  let store: PgStore;

  beforeAll(async () => {
    store = db.store();
    await migrate(store);
  });

  it('chains entries exactly as the SQLite log does, so one verification reads both', async () => {
    const log = new AuditLog(postgresStorage(store), { now: steppingClock() });
    const sqlite = new AuditLog(sqliteStorage(openDatabase(':memory:')), { now: steppingClock() });
    for (let i = 0; i < 5; i += 1) {
      const fromPg = await log.append(sampleEntry(i));
      const fromSqlite = await sqlite.append(sampleEntry(i));
      expect(fromPg).toEqual(fromSqlite);
    }
    expect(await verifyAuditLog(store.pool)).toEqual(await sqlite.verify());
  });

  it('hashes non-ASCII text as the server does (its UTF-8 bytes), and as two hash updates did', async () => {
    const log = new AuditLog(postgresStorage(store), { now: steppingClock() });
    const input = { note: 'Zahlung für Müller – 12,50 €', memo: '送金 🇩🇪 👩‍👩‍👧' };
    const entry = await log.append(sampleEntry(1, { input, error: 'refusé: ß ≠ ss' }));
    const { prevHash, hash, ...content } = entry;
    const twoUpdates = createHash('sha256').update(prevHash).update(canonicalJson(content)).digest('hex');
    expect(hash).toBe(twoUpdates);
    const stored = await store.pool.query<{ hash: string }>('SELECT hash FROM audit_log WHERE seq = $1', [
      entry.seq,
    ]);
    expect(stored.rows[0]?.hash).toBe(twoUpdates);
    expect(await verifyAuditLog(store.pool)).toMatchObject({ ok: true });
  });

  it('keeps one chain when two replicas append at once, each in group commits', async () => {
    const replicas = [db.store({ applicationName: 'replica-a' }), db.store({ applicationName: 'replica-b' })];
    const before = await auditHead(store.pool);
    const logs = replicas.map((replica) => new AuditLog(postgresStorage(replica)));
    const committed = await Promise.all(
      logs.flatMap((log, w) =>
        Array.from({ length: 8 }, async (_, k) => {
          const mine = [];
          for (let i = 0; i < 25; i += 1) {
            mine.push(await log.record(sampleEntry(i + k * 100 + w), { durable: i % 2 === 0 }));
          }
          return mine;
        }),
      ),
    );
    const seqs = committed.flat().map((entry) => entry.seq);
    expect(new Set(seqs).size).toBe(400);
    expect(Math.min(...seqs)).toBe(before.seq + 1);
    expect(Math.max(...seqs)).toBe(before.seq + 400);
    const verified = await verifyAuditLog(store.pool);
    expect(verified).toMatchObject({ ok: true, entries: before.seq + 400, headSeq: before.seq + 400 });
  });

  it('commits relaxed entries within the window, and on flush', async () => {
    const log = new AuditLog(postgresStorage(store));
    const before = await auditHead(store.pool);
    const read = log.record(sampleEntry(1), { durable: false });
    await log.flush();
    expect((await read).seq).toBe(before.seq + 1);
    expect((await auditHead(store.pool)).seq).toBe(before.seq + 1);
    expect(await log.record(sampleEntry(2), { durable: false })).toMatchObject({ seq: before.seq + 2 });
  });

  it('refuses an invalid entry alone, without holding up those around it', async () => {
    const log = new AuditLog(postgresStorage(store));
    const before = await auditHead(store.pool);
    const results = await Promise.allSettled([
      log.append(sampleEntry(1)),
      log.append({ ...sampleEntry(2), event: 'decided', approvalId: null }),
      log.append(sampleEntry(3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]).toMatchObject({ reason: { name: 'AuditInputError' } });
    expect((await auditHead(store.pool)).seq).toBe(before.seq + 2);
  });

  it("appends without the core's write lock, and an approval's transaction still appends in order", async () => {
    const storage = postgresStorage(store);
    const log = new AuditLog(storage);
    const before = await auditHead(store.pool);
    // Another replica holds the core's write lock: the group commit does not wait for it.
    const other = db.store({ applicationName: 'holder' });
    const holder = await other.pool.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock($1)', [LockKey.Storage]);
    expect(await log.append(sampleEntry(1))).toMatchObject({ seq: before.seq + 1 });
    await holder.query('COMMIT');
    holder.release();
    // A transaction appending inside itself (storage's lock, then the chain's) interleaves with
    // group commits of the same process and keeps one chain.
    const inTx = storage.transaction((tx) => log.appendIn(tx, sampleEntry(2)));
    const grouped = log.record(sampleEntry(3), { durable: false });
    await Promise.all([inTx, grouped]);
    const verified = await verifyAuditLog(store.pool);
    expect(verified).toMatchObject({ ok: true, headSeq: before.seq + 3 });
  });

  it("writes a transaction's rows past one statement's 65,535 parameters, all of them in order", async () => {
    const storage = postgresStorage(store);
    const before = await auditHead(store.pool);
    // 17 columns a row: 4,000 rows take 68,000 parameters, more than one INSERT can carry.
    const prepared = Array.from({ length: 4_000 }, (_, i) =>
      prepareEntry(sampleEntry(i), {}, [], '2026-01-01T00:00:00.000Z'),
    );
    await storage.transaction(async (tx) => {
      const { rows } = sealAfter(await tx.audit.head(), prepared);
      await tx.audit.insert(rows);
    });
    expect(await verifyAuditLog(store.pool)).toMatchObject({ ok: true, headSeq: before.seq + 4_000 });
    const last = await store.pool.query<{ input: string }>('SELECT input FROM audit_log WHERE seq = $1', [
      before.seq + 4_000,
    ]);
    expect(JSON.parse(last.rows[0]?.input ?? '{}')).toMatchObject({ note: 'entry 3999' });
  });

  it("appends a transaction's entry without materialising its columns one by one", async () => {
    // `unnest` of one array per column kept each in a tuplestore of its own, 17 of them, about
    // 270 KB a statement, taken from the operating system and given back at every append.
    const client = await store.pool.connect();
    try {
      const written = await reportedPlans(client, async (heard) => {
        const audit = new PgAuditStore(client, true);
        const { rows } = sealAfter(await audit.head(), [
          prepareEntry(sampleEntry(7), {}, [], '2026-01-01T00:00:00.000Z'),
        ]);
        heard.length = 0;
        await audit.insert(rows);
        return planNodes(heard);
      });
      expect(written.map((node) => node['Node Type'])).toContain('ModifyTable');
      expect(written.filter((node) => node['Node Type'] === 'Function Scan')).toEqual([]);
    } finally {
      client.release();
    }
    expect(await verifyAuditLog(store.pool)).toMatchObject({ ok: true });
  });

  it('writes a batch cut off during its commit once: the next commit finds it by its content', async () => {
    const storage = postgresStorage(store);
    const before = await auditHead(store.pool);
    const prepared = [1, 2, 3, 4].map((i) =>
      prepareEntry(sampleEntry(100 + i), {}, [], `2026-01-0${i}T00:00:00.000Z`),
    );
    const [p1, p2, p3, p4] = prepared as [Prepared, Prepared, Prepared, Prepared];
    const first = await storage.appendAudit([p1, p2], { durable: true });
    await first.onDisk;
    // As if the answer to that commit had been lost: the retry carries it as `unsure`.
    const again = await storage.appendAudit([p1, p2, p3], { durable: false, unsure: [p1, p2] });
    expect(again.of).toBe('unsure');
    expect(again.entries).toEqual(first.entries);
    expect((await auditHead(store.pool)).seq).toBe(before.seq + 2);
    // A batch that never committed is not found: the new one is written.
    const next = await storage.appendAudit([p3], { durable: false, unsure: [p4] });
    expect(next).toMatchObject({ of: 'batch', entries: [{ seq: before.seq + 3 }] });
    expect(await verifyAuditLog(store.pool)).toMatchObject({ ok: true, headSeq: before.seq + 3 });
  });

  it('still detects an owner who turns the triggers off to edit an entry', async () => {
    const anchor = await auditHead(store.pool);
    await store.pool.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
    await store.pool.query("UPDATE audit_log SET actor = 'cli:someone-else' WHERE seq = 3");
    await store.pool.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
    expect(await verifyAuditLog(store.pool, anchor)).toMatchObject({
      ok: false,
      firstBrokenSeq: 3,
      reason: 'entry 3: content does not match its hash (the entry was changed)',
    });
  });
});
