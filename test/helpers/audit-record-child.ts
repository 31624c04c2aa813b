// Records read entries by group commit, says so, then dies without closing anything (SIGKILL of
// itself): what a crash right after answering leaves. Usage: node --import tsx audit-record-child.ts <db-file>
import { AuditLog } from '../../src/core/audit/index.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { sampleEntry } from './audit.js';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: audit-record-child.ts <db-file>');
const log = new AuditLog(sqliteStorage(openDatabase(file)));
const entries = await Promise.all(
  Array.from({ length: 32 }, (_, i) =>
    log.record(sampleEntry(i, { requestIds: [`crash-${i}`] }), { durable: false }),
  ),
);
process.stdout.write(`${JSON.stringify(entries.map((e) => e.seq))}\n`, () =>
  process.kill(process.pid, 'SIGKILL'),
);
