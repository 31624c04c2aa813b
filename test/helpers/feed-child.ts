// A consumer of the approval feed in a process of its own, for the tests that kill it mid-way.
// Usage: node --import tsx feed-child.ts <db-file> <sandbox-url> <consumer>
// Prints {"ready":true} once following, then one JSON line per event it handled: {"seq","kind","id"}.
import { createRuntime } from '../../src/app/runtime.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { runtimeOptions, testConfig } from './core.js';

const [dbFile, sandboxUrl, consumer] = process.argv.slice(2);
if (dbFile === undefined || sandboxUrl === undefined || consumer === undefined) {
  throw new Error('usage: feed-child.ts <db-file> <sandbox-url> <consumer>');
}
const runtime = await createRuntime(
  testConfig({ url: sandboxUrl, credentials: SANDBOX_DEFAULTS }, { dbPath: dbFile }),
  runtimeOptions(),
);
runtime.executor.followApprovals({
  consumer,
  handle: async (event) => {
    process.stdout.write(`${JSON.stringify({ seq: event.seq, kind: event.kind, id: event.approvalId })}\n`);
  },
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
// Like a server's listener, something must keep the process alive: the follower's timers do not.
setInterval(() => {}, 60_000);
