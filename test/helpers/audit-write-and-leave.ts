// A process that writes one durable audit entry and one read's through the writer thread on the
// database its argument names (a `WriterTarget` as JSON), prints `written`, and closes nothing: it
// must end by itself (test/core/audit/thread-writer.test.ts).
import { AuditLog } from '../../src/core/audit/index.js';
import { ThreadWriter, type WriterTarget } from '../../src/core/audit/thread-writer.js';
import { createPgPool } from '../../src/core/store/postgres/pool.js';
import { postgresStorage } from '../../src/core/store/postgres/storage.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { sampleEntry } from './audit.js';

const target = JSON.parse(process.argv[2] ?? '') as WriterTarget;
const storage =
  target.kind === 'sqlite'
    ? sqliteStorage(openDatabase(target.file))
    : postgresStorage(createPgPool(target.url));
const log = new AuditLog(storage, { writer: new ThreadWriter(target) });
await log.append(sampleEntry(1, { requestIds: ['durable'] }));
log.note(sampleEntry(2, { requestIds: ['read'] }));
await log.flush();
process.stdout.write('written\n');
