// The audit chain on PostgreSQL through the runtime's path (`AuditLog` on `PostgresStorage`): 32
// concurrent writers spread over 2 processes (two replicas), each process group-committing its
// entries into the one chain; durable (each writer waits for its entry on disk) and reads (relaxed
// commits, writers do not wait), against a baseline measured in the same run: one transaction per
// entry under the core's write lock, as an approval's entry is written (a tenth of the entries).
// Entries/s from "go" until both processes have every entry committed; the chain must verify
// afterwards. Goal: ≥ 10,000/s.
// Run: npx tsx bench/postgres-audit.bench.ts [entries per mode]; the server is
// BANKOPS_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). No server: skipped.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { verifyAuditLog } from '../src/core/store/postgres/audit-verify.js';
import { migrate } from '../src/core/store/postgres/migrate.js';
import { createPgPool } from '../src/core/store/postgres/pool.js';
import { asServerAdmin, TEST_SERVER_URL, urlFor } from '../test/helpers/postgres.js';

const entries = Number(process.argv[2] ?? 20_000);
const PROCESSES = 2;
const WRITERS = 32;
const worker = fileURLToPath(new URL('./postgres-audit-worker.ts', import.meta.url));

const admin = (sql: string): Promise<void> =>
  asServerAdmin((client) => client.query(sql)).then(() => undefined);

async function run(mode: 'locked' | 'durable' | 'reads'): Promise<number> {
  const count = mode === 'locked' ? Math.max(PROCESSES * WRITERS, Math.round(entries / 10)) : entries;
  const name = `bankops_bench_${process.pid}_${mode}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = urlFor(name);
  const store = createPgPool(url, { max: 2 });
  try {
    await migrate(store);
    const children: ChildProcess[] = Array.from({ length: PROCESSES }, () =>
      spawn(
        process.execPath,
        ['--import', 'tsx', worker, url, String(count / PROCESSES), String(WRITERS / PROCESSES), mode],
        { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
      ),
    );
    await Promise.all(children.map((child) => once(child, 'message')));
    const started = performance.now();
    const done = children.map((child) => once(child, 'message'));
    for (const child of children) child.send('go');
    const reports = (await Promise.all(done)).map(
      ([report]) => report as { batches: number; entries: number },
    );
    const ms = performance.now() - started;
    const batches = reports.reduce((sum, r) => sum + r.batches, 0);
    await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
    const verified = await verifyAuditLog(store.pool);
    const perSecond = Math.round((count / ms) * 1000);
    console.log(
      `postgres audit, ${mode} (${WRITERS} writers over ${PROCESSES} processes): ${count} entries in ` +
        `${ms.toFixed(0)} ms = ${perSecond} entries/s in ${batches} commits (${(count / batches).toFixed(1)} a commit); ` +
        `chain ok=${verified.ok}, entries=${verified.entries}`,
    );
    if (!verified.ok || verified.entries !== count) throw new Error(`${mode}: the chain does not verify`);
    return perSecond;
  } finally {
    await store.pool.end();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

const unreachable = await admin('SELECT 1').then(
  () => undefined,
  (error: unknown) => (error instanceof Error ? error.message : String(error)),
);
if (unreachable !== undefined) {
  console.log(`postgres audit: skipped, no PostgreSQL at ${TEST_SERVER_URL} (${unreachable})`);
} else {
  const locked = await run('locked');
  const durable = await run('durable');
  const reads = await run('reads');
  console.log(
    `postgres audit: ${durable} entries/s durable (${(durable / locked).toFixed(1)}x), ${reads} entries/s reads ` +
      `(${(reads / locked).toFixed(1)}x) against ${locked} entries/s one transaction per entry under the core's lock ` +
      `(goal: ≥ 10,000 entries/s with ${WRITERS} writers over ${PROCESSES} processes)`,
  );
}
