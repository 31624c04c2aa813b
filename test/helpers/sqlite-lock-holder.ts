// A thread of the test's process that writes to a SQLite file in a transaction and holds it open
// until told to commit: the audit writer's thread in the middle of a commit, as the request thread
// meets it. Answers `ping` while it holds the transaction.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { adoptThreadLock } from '../../src/core/store/sqlite/thread-lock.js';

const port = parentPort;
if (port === null) throw new Error('runs as a worker thread');
const { file, threadLock } = workerData as { file: string; threadLock: SharedArrayBuffer };
adoptThreadLock(file, threadLock);
const db = openDatabase(file);
const storage = sqliteStorage(db);
const commit = new Promise<void>((resolve) => {
  port.on('message', (message: string) => {
    if (message === 'ping') port.postMessage('pong');
    if (message === 'commit') resolve();
  });
});
await storage.transaction(async () => {
  db.prepare('INSERT INTO lock_test (who) VALUES (?)').run('other thread');
  port.postMessage('holding');
  await commit;
});
port.postMessage('committed');
db.close();
