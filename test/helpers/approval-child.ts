// A second bankops process over the same database file and sandbox, for the approval tests that
// need real processes: racing approvers, and a process killed while it executes an approval.
// Usage: [APPROVAL_CHILD_OWNER=host:pid] node --import tsx approval-child.ts <db-file> <sandbox-url> [policy-file]
// Commands on stdin, one JSON object a line: {"cmd":"approve","id":"apr_…","as":"name"} | {"cmd":"recover"}
// | {"cmd":"call","tool":"create_payout","input":{…},"as":"name"}.
// Answers on stdout, one JSON object a line, starting with {"ready":true,"pid":…}.
import { createInterface } from 'node:readline';
import { createRuntime } from '../../src/app/runtime.js';
import { cliActor } from '../../src/core/actors.js';
import { optional } from '../../src/core/optional.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { runtimeOptions, testConfig } from './core.js';

const [dbFile, sandboxUrl, policyFile] = process.argv.slice(2);
if (dbFile === undefined || sandboxUrl === undefined) {
  throw new Error('usage: approval-child.ts <db-file> <sandbox-url> [policy-file]');
}

// The same composition root as every entry point; the sandbox is the parent's, reached by URL.
const sandbox = { url: sandboxUrl, credentials: SANDBOX_DEFAULTS };
const files = { dbPath: dbFile, ...(policyFile ? { policyPath: policyFile } : {}) };
// APPROVAL_CHILD_DATABASE_URL (with APPROVAL_CHILD_KEY_FILE): a replica on PostgreSQL instead of the file.
const databaseUrl = process.env.APPROVAL_CHILD_DATABASE_URL;
const config = {
  ...testConfig(sandbox, files),
  ...optional('databaseUrl', databaseUrl),
  ...optional('fingerprintKeyFile', process.env.APPROVAL_CHILD_KEY_FILE),
};
// APPROVAL_CHILD_OWNER plays a process on another host (only its lease tells when it is gone).
const owner = process.env.APPROVAL_CHILD_OWNER;
const runtime = await createRuntime(config, runtimeOptions(owner ? { owner } : {}));
const { executor } = runtime;

const say = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};

const running = new Set<Promise<void>>();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command = JSON.parse(line) as {
    cmd: string;
    id?: string;
    as?: string;
    tool?: string;
    input?: unknown;
  };
  const work =
    command.cmd === 'call'
      ? executor
          .execute({
            tool: command.tool ?? '',
            input: command.input,
            actor: cliActor(command.as ?? 'nobody'),
          })
          .then((result) => ({ call: result }))
      : command.cmd === 'approve'
        ? executor
            .approve(command.id ?? '', cliActor(command.as ?? 'nobody'))
            .then((result) => ({ approve: result }))
        : executor.recover().then((recovered) => ({ recovered }));
  const done = work
    .then(say, (error: unknown) => say({ error: error instanceof Error ? error.message : String(error) }))
    .finally(() => running.delete(done));
  running.add(done);
});
lines.on('close', () => {
  void Promise.all(running).then(() => runtime.close());
});
say({ ready: true, pid: process.pid });
