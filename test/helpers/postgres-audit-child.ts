// A replica appending to the PostgreSQL audit chain, for test/core/store/postgres/audit-processes.test.ts.
// Usage: node --import tsx postgres-audit-child.ts <url> <name> <count>; prints "ready", waits for
// a line on stdin, then appends `count` entries (durable and relaxed, 8 writers) and exits 0.
import { once } from 'node:events';
import { PgAuditWriter } from '../../src/core/store/postgres/audit-writer.js';
import { createPgPool } from '../../src/core/store/postgres/pool.js';

const [url, name, countArg] = process.argv.slice(2);
if (url === undefined || name === undefined) throw new Error('usage: <url> <name> <count>');
const count = Number(countArg);
const store = createPgPool(url, { applicationName: `audit-child-${name}`, max: 3 });
const writer = new PgAuditWriter(store, { relaxedWindowMs: 2 });
await store.pool.query('SELECT 1');
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const WRITERS = 8;
await Promise.all(
  Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = w; i < count; i += WRITERS) {
      await writer.record(
        {
          actor: `cli:${name}`,
          frontEnd: 'cli',
          tool: 'list_accounts',
          input: { i },
          decision: 'allow',
          event: 'executed',
          approvalId: null,
          requestIds: [`${name}-${i}`],
          outcome: 'ok',
          error: null,
          durationMs: 1,
        },
        { durable: i % 3 !== 0 },
      );
    }
  }),
);
await store.pool.end();
process.exit(0);
