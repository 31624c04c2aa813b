// One replica of bench/postgres-audit.bench.ts: `writers` async writers appending `count` audit
// entries in all through one group-committing writer, started on the parent's "go".
// Usage (by the bench): node --import tsx postgres-audit-worker.ts <url> <count> <writers> <durable|reads>
import type { AuditDraft } from '../src/core/store/postgres/audit.js';
import { PgAuditWriter } from '../src/core/store/postgres/audit-writer.js';
import { createPgPool } from '../src/core/store/postgres/pool.js';

const [url, countArg, writersArg, mode] = process.argv.slice(2);
if (url === undefined || mode === undefined)
  throw new Error('usage: <url> <count> <writers> <durable|reads>');
const count = Number(countArg);
const writers = Number(writersArg);
const send = (message: unknown): void => {
  process.send?.(message);
};

const draft = (i: number): AuditDraft => ({
  actor: 'slack:U0BENCH',
  frontEnd: 'slack',
  tool: 'get_balances',
  input: { companyCode: 'CMP-001', page: i, pid: process.pid },
  decision: 'allow',
  event: 'executed',
  approvalId: null,
  requestIds: [`req-${process.pid}-${i}`],
  outcome: 'ok',
  error: null,
  durationMs: 12,
});

const store = createPgPool(url, { applicationName: `bankops-bench-${process.pid}`, max: 3 });
const writer = new PgAuditWriter(store);
await store.pool.query('SELECT 1');
const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
send('ready');
await go;
const started = performance.now();
const committed: Promise<unknown>[] = [];
await Promise.all(
  Array.from({ length: writers }, async (_, w) => {
    for (let i = w; i < count; i += writers) {
      const entry = writer.record(draft(i), { durable: mode === 'durable' });
      // A durable writer waits for its entry; a reader goes on at the next turn, as the executor does.
      if (mode === 'durable') await entry;
      else {
        committed.push(entry);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }),
);
await Promise.all(committed);
send({ ms: performance.now() - started, ...writer.stats });
await store.pool.end();
process.disconnect?.();
