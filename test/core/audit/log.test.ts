import { createHash } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuditFilterError,
  AuditInputError,
  AuditLog,
  type AuditVerifyResult,
  GENESIS_HASH,
} from '../../../src/core/audit/index.js';
import { canonicalJson } from '../../../src/core/canonical-json.js';
import { type Db, openDatabase } from '../../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../../src/core/store/sqlite/storage.js';
import { sampleEntry, steppingClock, tempDir } from '../../helpers/audit.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let fileCounter = 0;
let db: Db;
let file: string;
let log: AuditLog;
/** A closed (checkpointed) database holding 1,000 entries, copied by the tampering tests. */
let template: string;

function open(copyOf?: string): void {
  fileCounter += 1;
  file = join(tmp.dir, `audit-${fileCounter}.db`);
  if (copyOf !== undefined) copyFileSync(copyOf, file);
  db = openDatabase(file);
  log = new AuditLog(sqliteStorage(db), { now: steppingClock() });
}

beforeAll(async () => {
  template = join(tmp.dir, 'template.db');
  const templateDb = openDatabase(template, { synchronous: 'NORMAL' });
  const templateLog = new AuditLog(sqliteStorage(templateDb), { now: steppingClock() });
  for (let i = 0; i < 1000; i += 1) await templateLog.append(sampleEntry(i));
  templateDb.close();
});

/** Each test gets its own database file, so tampering in one cannot leak into another. */
beforeEach(async () => {
  open();
  return () => db.close();
});

async function fill(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await log.append(sampleEntry(i));
}

/** A second connection that removes the protections, as an attacker with file access could. */
function tamper(sql: string, ...params: unknown[]): void {
  const other = new Database(file);
  try {
    other.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;');
    other.prepare(sql).run(...params);
  } finally {
    other.close();
  }
}

function broken(result: AuditVerifyResult): { seq: number; reason: string } {
  if (result.ok) throw new Error(`expected verify to fail, it passed with ${result.entries} entries`);
  return { seq: result.firstBrokenSeq, reason: result.reason };
}

describe('AuditLog append and verify', () => {
  it('appends 1,000 entries in one valid chain with monotonic seq', async () => {
    await fill(1000);
    const result = await log.verify();
    expect(result).toEqual({ ok: true, entries: 1000, head: (await log.head()).hash, headSeq: 1000 });
    const seqs = db.prepare('SELECT seq FROM audit_log ORDER BY seq').pluck().all();
    expect(seqs).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });

  it('chains each entry as sha256(prev_hash || canonical JSON of its content incl. seq)', async () => {
    const first = await log.append(sampleEntry(1));
    const second = await log.append(sampleEntry(2, { approvalId: 'apr_1' }));
    expect(first.prevHash).toBe(GENESIS_HASH);
    expect(second.prevHash).toBe(first.hash);
    const { prevHash, hash, ...content } = second;
    expect(Object.keys(content).sort()).toEqual([
      'actor',
      'approvalId',
      'decision',
      'durationMs',
      'error',
      'event',
      'frontEnd',
      'input',
      'outcome',
      'requestIds',
      'seq',
      'tool',
      'ts',
    ]);
    const expected = createHash('sha256')
      .update(prevHash + canonicalJson(content))
      .digest('hex');
    expect(hash).toBe(expected);
    expect(second.ts).toBe('2025-01-15T09:30:00.001Z');
  });

  it('hashes non-ASCII text as its UTF-8 bytes, as two hash updates (prev_hash, then the text) did', async () => {
    const input = { note: 'Zahlung für Müller – 12,50 €', memo: '送金 🇩🇪 👩‍👩‍👧', odd: '\ud800 alone' };
    await log.append(sampleEntry(1));
    const entry = await log.append(sampleEntry(2, { input, error: 'refusé: ß ≠ ss' }));
    const { prevHash, hash, ...content } = entry;
    const text = canonicalJson(content);
    expect(text).toContain('für Müller');
    const twoUpdates = createHash('sha256').update(prevHash).update(text).digest('hex');
    const utf8Bytes = createHash('sha256')
      .update(Buffer.concat([Buffer.from(prevHash, 'utf8'), Buffer.from(text, 'utf8')]))
      .digest('hex');
    expect(hash).toBe(twoUpdates);
    expect(hash).toBe(utf8Bytes);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
  });

  it('reports an empty log as valid with the genesis head', async () => {
    expect(await log.verify()).toEqual({ ok: true, entries: 0, head: GENESIS_HASH, headSeq: 0 });
    expect(await log.head()).toEqual({ seq: 0, hash: GENESIS_HASH });
  });

  it('fills defaults and stores the entry as given', async () => {
    const entry = await log.append({
      actor: 'cli:alice',
      frontEnd: 'cli',
      tool: 'update_card_status',
      input: { status: 'LOCKED' },
      decision: 'approval_required',
      event: 'requested',
      outcome: 'pending',
      approvalId: 'apr_9',
    });
    expect(entry).toMatchObject({
      seq: 1,
      requestIds: [],
      error: null,
      durationMs: null,
      approvalId: 'apr_9',
      input: { status: 'LOCKED' },
    });
    expect(await log.tail(1)).toEqual([entry]);
  });
});

describe('AuditLog append-only protections', () => {
  beforeEach(() => fill(5));

  it('refuses UPDATE through the triggers', async () => {
    expect(() => db.prepare("UPDATE audit_log SET actor = 'cli:mallory' WHERE seq = 2").run()).toThrow(
      'audit log is append-only',
    );
    expect((await log.list({ afterSeq: 1, limit: 1 }))[0]?.actor).toBe('mcp:ops-assistant');
  });

  it('refuses DELETE through the triggers', async () => {
    expect(() => db.prepare('DELETE FROM audit_log WHERE seq = 3').run()).toThrow('audit log is append-only');
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow('audit log is append-only');
    expect(await log.verify()).toMatchObject({ ok: true, entries: 5 });
  });

  it('refuses INSERT OR REPLACE over an existing entry and inserts not linked to the head', async () => {
    const row = db.prepare('SELECT * FROM audit_log WHERE seq = 2').get() as Record<string, unknown>;
    const columns = Object.keys(row);
    const insert = (verb: string, values: Record<string, unknown>) =>
      db
        .prepare(
          `${verb} INTO audit_log (${columns.join(',')}) VALUES (${columns.map((c) => `@${c}`).join(',')})`,
        )
        .run(values);
    expect(() => insert('INSERT OR REPLACE', { ...row, actor: 'cli:mallory' })).toThrow(
      'appended at the head of the chain',
    );
    expect(() => insert('INSERT', { ...row, seq: 6 })).toThrow('appended at the head of the chain');
    expect(await log.verify()).toMatchObject({ ok: true, entries: 5 });
  });
});

describe('AuditLog.verify detects tampering', () => {
  beforeEach(async () => {
    db.close();
    open(template);
  });

  it('names the seq of a row whose input was edited through another connection', async () => {
    tamper(`UPDATE audit_log SET input = '{"amount":1}' WHERE seq = 437`);
    const { seq, reason } = broken(await log.verify());
    expect(seq).toBe(437);
    expect(reason).toBe('entry 437: content does not match its hash (the entry was changed)');
  });

  it('names the missing seq when a middle row is deleted', async () => {
    tamper('DELETE FROM audit_log WHERE seq = 500');
    const result = await log.verify();
    expect(result).toMatchObject({ ok: false, entries: 999 });
    expect(broken(result)).toEqual({ seq: 500, reason: 'entry 500 is missing: seq jumps from 499 to 501' });
  });

  it('names a range when several rows are deleted', async () => {
    tamper('DELETE FROM audit_log WHERE seq BETWEEN 10 AND 12');
    expect(broken(await log.verify())).toEqual({
      seq: 10,
      reason: 'entries 10 to 12 are missing: seq jumps from 9 to 13',
    });
  });

  it('names the seq whose prev_hash was edited', async () => {
    tamper(`UPDATE audit_log SET prev_hash = ? WHERE seq = 250`, 'f'.repeat(64));
    const { seq, reason } = broken(await log.verify());
    expect(seq).toBe(250);
    expect(reason).toContain('prev_hash does not match the hash of entry 249');
  });

  it('catches a row re-hashed after an edit at the next link', async () => {
    const row = db.prepare('SELECT prev_hash, input FROM audit_log WHERE seq = 700').get() as {
      prev_hash: string;
    };
    const forged = (await log.list({ afterSeq: 699, limit: 1 }))[0];
    if (forged === undefined) throw new Error('entry 700 missing');
    const { prevHash: _p, hash: _h, ...content } = { ...forged, actor: 'cli:mallory' };
    const hash = createHash('sha256')
      .update(row.prev_hash + canonicalJson(content))
      .digest('hex');
    tamper(`UPDATE audit_log SET actor = 'cli:mallory', hash = ? WHERE seq = 700`, hash);
    expect(broken(await log.verify()).seq).toBe(701);
  });

  it('names an entry whose input is no longer JSON', async () => {
    tamper(`UPDATE audit_log SET input = 'not json' WHERE seq = 3`);
    expect(broken(await log.verify())).toEqual({
      seq: 3,
      reason: 'entry 3: a JSON column (input or request ids) does not hold JSON',
    });
  });

  it('detects removal of the newest entries only against a recorded anchor', async () => {
    const anchor = await log.head();
    expect(anchor.seq).toBe(1000);
    tamper('DELETE FROM audit_log WHERE seq > 990');
    expect(await log.verify()).toMatchObject({ ok: true, entries: 990 });
    expect(broken(await log.verify(anchor))).toEqual({
      seq: 991,
      reason: 'the log ends at entry 990 but entry 1000 was recorded: entries were removed from the end',
    });
  });

  it('detects a fully re-computed chain against a recorded anchor', async () => {
    const anchor = { seq: 10, hash: (await log.list({ afterSeq: 9, limit: 1 }))[0]?.hash ?? '' };
    expect(await log.verify(anchor)).toMatchObject({ ok: true });
    expect(broken(await log.verify({ seq: 10, hash: 'a'.repeat(64) })).seq).toBe(10);
  });
});

describe('AuditLog reading', () => {
  it('exports JSON lines that parse and match tail', async () => {
    await fill(30);
    const lines: string[] = [];
    expect(await log.exportJsonl((line) => lines.push(line))).toBe(30);
    expect(lines.every((line) => !line.includes('\n'))).toBe(true);
    expect(lines.map((line) => JSON.parse(line))).toEqual(await log.tail(30));
    const filtered: string[] = [];
    await log.exportJsonl((line) => filtered.push(line), { tool: 'create_payout' });
    expect(filtered.map((line) => JSON.parse(line).seq)).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
  });

  it('tails the newest entries oldest first', async () => {
    await fill(12);
    expect((await log.tail(3)).map((e) => e.seq)).toEqual([10, 11, 12]);
    expect(await log.tail(50)).toHaveLength(12);
  });

  it('filters by tool, actor, approval id, time and seq, with a limit and an order', async () => {
    await fill(20);
    await log.append(
      sampleEntry(20, { approvalId: 'apr_x', event: 'decided', decision: 'approved', outcome: 'pending' }),
    );
    expect((await log.list({ tool: 'create_payout' })).map((e) => e.seq)).toEqual([1, 4, 7, 10, 13, 16, 19]);
    expect((await log.list({ actor: 'mcp:ops-assistant', limit: 2 })).map((e) => e.seq)).toEqual([2, 4]);
    expect(
      (await log.list({ actor: 'mcp:ops-assistant', limit: 2, order: 'desc' })).map((e) => e.seq),
    ).toEqual([20, 18]);
    expect((await log.list({ approvalId: 'apr_x' })).map((e) => e.seq)).toEqual([21]);
    // the stepping clock gives entry n the time start + (n - 1) ms
    expect((await log.list({ since: '2025-01-15T09:30:00.015Z' })).map((e) => e.seq)).toEqual([
      16, 17, 18, 19, 20, 21,
    ]);
    expect(
      (
        await log.list({ since: new Date('2025-01-15T09:30:00.002Z'), until: '2025-01-15T09:30:00.004Z' })
      ).map((e) => e.seq),
    ).toEqual([3, 4]);
    expect((await log.list({ afterSeq: 19 })).map((e) => e.seq)).toEqual([20, 21]);
    await expect(log.list({ since: 'yesterday-ish' })).rejects.toThrow(AuditFilterError);
    await expect(log.list({ limit: 0 })).rejects.toThrow('limit: must be a whole number ≥ 1');
  });
});

describe('AuditLog input validation', () => {
  it('refuses an entry that breaks the schema, naming the fields, and writes nothing', async () => {
    const bad = { ...sampleEntry(1), frontEnd: 'email', tool: '' } as unknown as Parameters<
      AuditLog['append']
    >[0];
    await expect(log.append(bad)).rejects.toThrow(AuditInputError);
    try {
      await log.append(bad);
    } catch (error) {
      expect(error).toBeInstanceOf(AuditInputError);
      const issues = (error as AuditInputError).issues;
      expect(issues.some((issue) => issue.startsWith('frontEnd:'))).toBe(true);
      expect(issues.some((issue) => issue.startsWith('tool:'))).toBe(true);
    }
    expect((await log.head()).seq).toBe(0);
  });

  it('refuses unknown fields and inconsistent event, decision and outcome', async () => {
    const withExtra = { ...sampleEntry(1), approvalID: 'x' } as unknown as Parameters<AuditLog['append']>[0];
    await expect(log.append(withExtra)).rejects.toThrow('Unrecognized key');
    await expect(log.append(sampleEntry(1, { event: 'requested', decision: 'approved' }))).rejects.toThrow(
      "decision: a 'requested' entry takes one of allow, deny, approval_required, invalid",
    );
    await expect(log.append(sampleEntry(1, { event: 'decided', decision: 'rejected' }))).rejects.toThrow(
      "approvalId: a 'decided' entry names its approval",
    );
    await expect(log.append(sampleEntry(1, { event: 'failed', outcome: 'failed' }))).rejects.toThrow(
      "error: a 'failed' entry says what failed",
    );
    await expect(log.append(sampleEntry(1, { event: 'executed', outcome: 'failed' }))).rejects.toThrow(
      "outcome: an 'executed' entry has outcome 'ok'",
    );
    await expect(log.append(sampleEntry(1, { durationMs: -1 }))).rejects.toThrow('durationMs');
    expect((await log.head()).seq).toBe(0);
  });

  it('truncates very long errors', async () => {
    const entry = await log.append(
      sampleEntry(1, { event: 'failed', outcome: 'failed', error: `boom ${'x'.repeat(5000)}` }),
    );
    expect(entry.error?.length).toBeLessThan(2100);
    expect(entry.error?.endsWith('…[truncated]')).toBe(true);
  });
});
