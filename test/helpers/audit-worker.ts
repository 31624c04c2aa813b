// Child process for the concurrency test: waits for "go" on stdin, then appends N entries to the
// shared database file. Usage: node --import tsx audit-worker.ts <db-file> <name> <count>
import { AuditLog } from '../../src/core/audit/index.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { sampleEntry } from './audit.js';

const [file, name, countText] = process.argv.slice(2);
if (file === undefined || name === undefined || countText === undefined) {
  throw new Error('usage: audit-worker.ts <db-file> <name> <count>');
}
const db = openDatabase(file);
const log = new AuditLog(sqliteStorage(db));
process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < Number(countText); i += 1) {
    // A short gap between appends, as real callers leave, lets the other process take the lock.
    if (i > 0) Atomics.wait(pause, 0, 0, 1);
    await log.append(sampleEntry(i, { actor: `cli:${name}`, frontEnd: 'cli', requestIds: [`${name}-${i}`] }));
  }
  db.close();
  process.stdout.write('done\n');
  process.exit(0);
});
