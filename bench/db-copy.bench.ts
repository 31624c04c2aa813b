// `bankops db copy` on this machine: a SQLite file whose audit log holds N entries (default
// 100,000, written through the audit log in transactions of 5,000) copied into a fresh PostgreSQL
// database by the command itself, the chain verified there before it commits. Prints rows/s.
// Run: npx tsx bench/db-copy.bench.ts [entries]; the server is BANKOPS_TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test). No server: skipped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { main } from '../src/cli/main.js';
import { AuditLog } from '../src/core/audit/index.js';
import { openDatabase } from '../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../src/core/store/sqlite/storage.js';

const server = process.env.BANKOPS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const count = Number(process.argv[2] ?? 100_000);
const BATCH = 5_000;

async function admin(sql: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query(sql);
    return true;
  } catch (error) {
    process.stderr.write(`db copy bench skipped: ${(error as Error).message}\n`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'bankops-copy-bench-'));
const file = join(dir, 'bankops.db');
const name = `bankops_bench_copy_${process.pid}`;
if (await admin(`CREATE DATABASE ${name}`)) {
  try {
    const db = openDatabase(file);
    const storage = sqliteStorage(db);
    const audit = new AuditLog(storage);
    for (let done = 0; done < count; done += BATCH) {
      await storage.transaction(async (tx) => {
        for (let i = done; i < Math.min(count, done + BATCH); i += 1) {
          await audit.appendIn(tx, {
            actor: 'slack:U0BENCH',
            frontEnd: 'slack',
            tool: 'list_accounts',
            input: { companyCode: 'CMP-001', page: i },
            decision: 'allow',
            event: 'executed',
            requestIds: [`req-${i}`],
            outcome: 'ok',
            durationMs: 12,
          });
        }
      });
    }
    db.close();
    const url = new URL(server);
    url.pathname = `/${name}`;
    let stdout = '';
    const started = performance.now();
    const status = await main(['db', 'copy', '--to', url.toString()], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => true },
      env: { ...process.env, BANKOPS_DB: file },
      cwd: process.cwd(),
    });
    const seconds = (performance.now() - started) / 1000;
    if (status !== 0) throw new Error(`db copy failed (${status}): ${stdout}`);
    const rate = Math.round(count / seconds);
    process.stdout.write(
      `db copy: ${count} audit entries to PostgreSQL, chain verified, in ${seconds.toFixed(2)} s (${rate} entries/s)\n`,
    );
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  }
}
