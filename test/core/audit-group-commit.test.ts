import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/core/audit/index.js';
import { openDatabase } from '../../src/core/db.js';
import { sampleEntry } from '../helpers/audit.js';

const dir = mkdtempSync(join(tmpdir(), 'bankops-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHILD = fileURLToPath(new URL('../helpers/audit-record-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('group commit', () => {
  it('commits the entries of concurrent writers, durable and not, in one chain that verifies', async () => {
    const db = openDatabase(join(dir, 'group.db'));
    const log = new AuditLog(db);
    const entries = await Promise.all(
      Array.from({ length: 64 }, (_, i) => log.record(sampleEntry(i), { durable: i % 2 === 0 })),
    );
    expect(entries.map((e) => e.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 64 }, (_, i) => i + 1),
    );
    expect(log.verify()).toMatchObject({ ok: true, entries: 64 });
    // A batch of reads committed without an fsync leaves the connection as durable as before.
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });

  it('keeps read entries whose writer crashed right after they were committed', async () => {
    const file = join(dir, 'crash.db');
    const stdout = await new Promise<string>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', CHILD, file], { cwd: ROOT }, (_error, out) =>
        resolve(out),
      );
    });
    const seqs = JSON.parse(stdout) as number[];
    expect(seqs).toHaveLength(32);
    const db = openDatabase(file);
    const log = new AuditLog(db);
    expect(log.verify()).toMatchObject({ ok: true, entries: 32 });
    expect(log.list({ limit: 100 }).map((e) => e.requestIds[0])).toEqual(
      Array.from({ length: 32 }, (_, i) => `crash-${i}`),
    );
    db.close();
  });

  it('refuses an invalid entry at once, without holding up the others', async () => {
    const db = openDatabase(join(dir, 'invalid.db'));
    const log = new AuditLog(db);
    const results = await Promise.allSettled([
      log.record(sampleEntry(1), { durable: false }),
      log.record({ ...sampleEntry(2), event: 'decided', approvalId: null }, { durable: false }),
      log.record(sampleEntry(3), { durable: false }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log.verify()).toMatchObject({ ok: true, entries: 2 });
    db.close();
  });
});
