// One replica of bench/postgres-audit.bench.ts: `writers` async writers appending `count` audit
// entries in all through the runtime's audit path (`AuditLog` on `PostgresStorage`, as `bankops
// serve` builds it), started on the parent's "go".
// Usage (by the bench): node --import tsx postgres-audit-worker.ts <url> <count> <writers> <locked|durable|reads>
import { AuditLog } from '../src/core/audit/index.js';
import type { AuditEntryInput } from '../src/core/audit/schema.js';
import { createPgPool } from '../src/core/store/postgres/pool.js';
import { postgresStorage } from '../src/core/store/postgres/storage.js';

const [url, countArg, writersArg, mode] = process.argv.slice(2);
if (url === undefined || mode === undefined)
  throw new Error('usage: <url> <count> <writers> <locked|durable|reads>');
const count = Number(countArg);
const writers = Number(writersArg);
const send = (message: unknown): void => {
  process.send?.(message);
};

const entry = (i: number): AuditEntryInput => ({
  actor: 'slack:U0BENCH',
  frontEnd: 'slack',
  tool: 'get_balances',
  input: { companyCode: 'CMP-001', page: i, pid: process.pid },
  decision: 'allow',
  event: 'executed',
  requestIds: [`req-${process.pid}-${i}`],
  outcome: 'ok',
  durationMs: 12,
});

const store = createPgPool(url, { applicationName: `bankops-bench-${process.pid}`, max: 4 });
let commits = 0;
const storage = postgresStorage(store);
const log = new AuditLog(storage, {
  onWritten: () => {
    commits += 1;
  },
});
await store.pool.query('SELECT 1');
const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
send('ready');
await go;
const started = performance.now();
const committed: Promise<unknown>[] = [];
await Promise.all(
  Array.from({ length: writers }, async (_, w) => {
    for (let i = w; i < count; i += writers) {
      // The baseline: one transaction per entry under the core's write lock, as an approval's entry
      // is written. A write's entry: the writer waits for it on disk. A read's: the writer goes on
      // at the next turn, as the executor does, and the entry joins a group commit.
      if (mode === 'locked') await storage.transaction((tx) => log.appendIn(tx, entry(i)));
      else if (mode === 'durable') await log.append(entry(i));
      else {
        committed.push(log.record(entry(i), { durable: false }));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }),
);
await Promise.all(committed);
send({ ms: performance.now() - started, batches: commits, entries: count });
await log.close();
await store.pool.end();
process.disconnect?.();
