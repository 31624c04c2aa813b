import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT, pending, until } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());

const FEED_CHILD = fileURLToPath(new URL('../helpers/feed-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('review: a feed consumer while another process holds the write lock', () => {
  it('keeps following (and keeps its process alive) when recording its position meets a busy database', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', FEED_CHILD, core.dbPath, core.sandbox.url, 'slack'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    let exitCode: number | null = null;
    child.on('exit', (code) => {
      exitCode = code;
    });
    await until(() => out.includes('"ready"'), 'the consumer to start');

    // Another process (here: a connection of this one) writes for longer than the 5 s busy timeout,
    // e.g. an operator's maintenance job or a slow disk, just after an approval was opened.
    const other = new Database(core.dbPath);
    const { id } = pending(await core.call('create_payout', PAYOUT));
    other.exec('BEGIN IMMEDIATE');
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    other.exec('ROLLBACK');
    other.close();

    // The lock is gone: the consumer must still be there, and go on with the next event.
    core.executor.cancel(id, core.operator);
    await until(() => out.includes('"cancelled"') || exitCode !== null, 'the cancel to be handled', 5_000);
    child.kill('SIGKILL');
    expect({ exitCode, died: err.includes('SQLITE_BUSY') ? 'SQLITE_BUSY' : err.slice(0, 200) }).toEqual({
      exitCode: null,
      died: '',
    });
  }, 30_000);
});
