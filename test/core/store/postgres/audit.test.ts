import { beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../../src/core/audit/index.js';
import type { AuditEntryInput } from '../../../../src/core/audit/schema.js';
import { openDatabase } from '../../../../src/core/db.js';
import { type AuditDraft, auditHead } from '../../../../src/core/store/postgres/audit.js';
import { verifyAuditLog } from '../../../../src/core/store/postgres/audit-verify.js';
import { PgAuditWriter } from '../../../../src/core/store/postgres/audit-writer.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../../../src/core/store/postgres/pool.js';
import { sqliteStorage } from '../../../../src/core/store/sqlite/storage.js';
import { sampleEntry, steppingClock } from '../../../helpers/audit.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';

const available = await postgresAvailable();

/** The entry as the audit log hands it on after validation and redaction (nothing secret in it). */
const draftOf = (input: AuditEntryInput): AuditDraft => ({
  actor: input.actor,
  frontEnd: input.frontEnd,
  tool: input.tool,
  input: input.input as AuditDraft['input'],
  decision: input.decision,
  event: input.event,
  approvalId: input.approvalId ?? null,
  requestIds: input.requestIds ?? [],
  outcome: input.outcome ?? null,
  error: input.error ?? null,
  durationMs: input.durationMs ?? null,
});

describe.skipIf(!available)('the audit chain on PostgreSQL', () => {
  const db = useTestDatabase();
  let store: PgStore;

  beforeAll(async () => {
    store = db.store();
    await migrate(store);
  });

  it('chains entries exactly as the SQLite log does, so one verification reads both', async () => {
    const writer = new PgAuditWriter(store, { now: steppingClock() });
    const sqlite = new AuditLog(sqliteStorage(openDatabase(':memory:')), { now: steppingClock() });
    for (let i = 0; i < 5; i += 1) {
      const fromPg = await writer.record(draftOf(sampleEntry(i)), { durable: true });
      const fromSqlite = await sqlite.append(sampleEntry(i));
      expect(fromPg).toEqual(fromSqlite);
    }
    expect(await verifyAuditLog(store.pool)).toEqual(await sqlite.verify());
  });

  it('keeps one chain when two replicas append at once, each in group commits', async () => {
    const replicas = [db.store({ applicationName: 'replica-a' }), db.store({ applicationName: 'replica-b' })];
    const before = await auditHead(store.pool);
    const writers = replicas.map((replica) => new PgAuditWriter(replica));
    const committed = await Promise.all(
      writers.flatMap((writer, w) =>
        Array.from({ length: 8 }, async (_, k) => {
          const mine = [];
          for (let i = 0; i < 25; i += 1) {
            mine.push(await writer.record(draftOf(sampleEntry(i + k * 100 + w)), { durable: i % 2 === 0 }));
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
    const writer = new PgAuditWriter(store, { relaxedWindowMs: 1 });
    const before = await auditHead(store.pool);
    const read = writer.record(draftOf(sampleEntry(1)), { durable: false });
    await writer.flush();
    expect((await read).seq).toBe(before.seq + 1);
    expect((await auditHead(store.pool)).seq).toBe(before.seq + 1);
    expect(await writer.record(draftOf(sampleEntry(2)), { durable: false })).toMatchObject({
      seq: before.seq + 2,
    });
  });

  it('rejects the entries of a batch that fails, and commits the next batch', async () => {
    const writer = new PgAuditWriter(store);
    const before = await auditHead(store.pool);
    const broken = writer.record(
      { ...draftOf(sampleEntry(1)), input: { amount: Number.NaN } },
      { durable: true },
    );
    const sharing = writer.record(draftOf(sampleEntry(2)), { durable: true });
    await expect(broken).rejects.toThrow(/not a JSON number/);
    await expect(sharing).rejects.toThrow(/not a JSON number/);
    expect(await auditHead(store.pool)).toEqual(before);
    expect(await writer.record(draftOf(sampleEntry(3)), { durable: true })).toMatchObject({
      seq: before.seq + 1,
    });
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
