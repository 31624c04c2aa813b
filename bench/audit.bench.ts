// The audit log on this machine (SQLite): one durable transaction per entry (an approval's entry
// inside its transaction) against the group commit (`append` and `record`) with 32 concurrent writers, durable (one fsync per batch, each
// writer waiting for its entry to be on disk) and for reads (no fsync of their own; as the executor
// does, a writer does not wait for its read's entry and goes on at the next turn of the event
// loop); each figure runs until every entry is committed, and the chain verifies after each.
// Ratios against the first, measured in the same run. Run: npx tsx bench/audit.bench.ts [count]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog } from '../src/core/audit/index.js';
import type { AuditEntryInput } from '../src/core/audit/schema.js';
import type { Storage } from '../src/core/store/index.js';
import { openDatabase } from '../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../src/core/store/sqlite/storage.js';

const count = Number(process.argv[2] ?? 4000);
const WRITERS = 32;
const dir = mkdtempSync(join(tmpdir(), 'bankops-audit-bench-'));

const entry = (i: number): AuditEntryInput => ({
  actor: 'slack:U0BENCH',
  frontEnd: 'slack',
  tool: 'get_balances',
  input: { companyCode: 'CMP-001', page: i, pin: '4931' },
  decision: 'allow',
  event: 'executed',
  requestIds: [`req-${i}`],
  outcome: 'ok',
  durationMs: 12,
});

async function run(name: string, write: (log: AuditLog, storage: Storage) => Promise<void>): Promise<number> {
  const db = openDatabase(join(dir, `${name}.db`));
  const storage = sqliteStorage(db);
  const log = new AuditLog(storage);
  const started = performance.now();
  await write(log, storage);
  const ms = performance.now() - started;
  const verified = await log.verify();
  db.close();
  const perSecond = Math.round((count / ms) * 1000);
  console.log(
    `${name}: ${count} entries in ${ms.toFixed(0)} ms = ${perSecond} entries/s; chain ok=${verified.ok}`,
  );
  if (!verified.ok) throw new Error(`${name}: the chain does not verify`);
  return perSecond;
}

/** `WRITERS` async writers, each appending its share one entry after another. */
const concurrently = (write: (i: number) => Promise<unknown>) =>
  Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = w; i < count; i += WRITERS) await write(i);
    }),
  ).then(() => undefined);

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `writers` writers recording reads as the executor does: not waiting for each commit. */
async function readsBy(writers: number, log: AuditLog): Promise<void> {
  const committed: Promise<unknown>[] = [];
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = w; i < count; i += writers) {
        committed.push(log.record(entry(i), { durable: false }));
        await nextTurn();
      }
    }),
  );
  await Promise.all(committed);
}

try {
  const single = await run('one durable transaction per entry (32 writers)', (log, storage) =>
    concurrently((i) => storage.transaction((tx) => log.appendIn(tx, entry(i)))),
  );
  const grouped = await run('group commit, durable (32 writers)', (log) =>
    concurrently((i) => log.append(entry(i))),
  );
  const reads = await run('group commit, reads (32 writers)', (log) => readsBy(WRITERS, log));
  const sequential = await run('group commit, reads, one writer', (log) => readsBy(1, log));
  console.log(
    `audit: durable group commit ${(grouped / single).toFixed(1)}x, reads ${(reads / single).toFixed(1)}x, ` +
      `one reader ${(sequential / single).toFixed(1)}x the entries/s of one fsync per entry ` +
      `(goal: ≥ 20,000 entries/s with ${WRITERS} writers)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
