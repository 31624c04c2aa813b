// A replica appending to the PostgreSQL audit chain, for test/core/store/postgres/audit-processes.test.ts.
// Usage: node --import tsx postgres-audit-child.ts <url> <name> <count>; prints "ready", waits for
// a line on stdin, then appends `count` entries (durable and relaxed, 8 writers) through the audit
// log on the PostgreSQL storage, as `bankops serve` does, and exits 0.
import { once } from 'node:events';
import { AuditLog } from '../../src/core/audit/index.js';
import { createPgPool } from '../../src/core/store/postgres/pool.js';
import { postgresStorage } from '../../src/core/store/postgres/storage.js';

const [url, name, countArg] = process.argv.slice(2);
if (url === undefined || name === undefined) throw new Error('usage: <url> <name> <count>');
const count = Number(countArg);
const store = createPgPool(url, { applicationName: `audit-child-${name}`, max: 3 });
const log = new AuditLog(postgresStorage(store));
await store.pool.query('SELECT 1');
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const WRITERS = 8;
await Promise.all(
  Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = w; i < count; i += WRITERS) {
      await log.record(
        {
          actor: `cli:${name}`,
          frontEnd: 'cli',
          tool: 'list_accounts',
          input: { i },
          decision: 'allow',
          event: 'executed',
          requestIds: [`${name}-${i}`],
          outcome: 'ok',
          durationMs: 1,
        },
        { durable: i % 3 !== 0 },
      );
    }
  }),
);
await log.close();
await store.pool.end();
process.exit(0);
