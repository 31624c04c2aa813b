import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/core/audit/index.js';
import { openDatabase } from '../../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../../src/core/store/sqlite/storage.js';
import { tempDir } from '../../helpers/audit.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const worker = fileURLToPath(new URL('../../helpers/audit-worker.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

function startWorker(
  file: string,
  name: string,
  count: number,
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, file, name, String(count)], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 15_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('AuditLog with appenders in several processes', () => {
  it('keeps one valid chain when two processes each append 200 entries at once', async () => {
    const file = join(tmp.dir, 'shared.db');
    // Create the schema first so the workers race on appends, not only on the migration.
    openDatabase(file).close();
    const workers = [startWorker(file, 'alpha', 200), startWorker(file, 'beta', 200)];
    await until(() => workers.every((w) => w.output().includes('ready')), 'both workers to be ready');
    for (const w of workers) w.child.stdin?.write('go\n');
    const codes = await Promise.all(workers.map(async (w) => (await once(w.child, 'exit'))[0]));
    expect(codes, workers.map((w) => w.output()).join('\n')).toEqual([0, 0]);

    const db = openDatabase(file);
    try {
      const log = new AuditLog(sqliteStorage(db));
      expect(await log.verify()).toMatchObject({ ok: true, entries: 400, headSeq: 400 });
      const entries = await log.list({ limit: 400 });
      const actors = entries.map((e) => e.actor);
      expect(actors.filter((a) => a === 'cli:alpha')).toHaveLength(200);
      expect(actors.filter((a) => a === 'cli:beta')).toHaveLength(200);
      // Each worker's own entries keep its order; the two streams interleave in the one chain.
      for (const name of ['alpha', 'beta']) {
        const ids = entries.filter((e) => e.actor === `cli:${name}`).map((e) => e.requestIds[0]);
        expect(ids).toEqual(Array.from({ length: 200 }, (_, i) => `${name}-${i}`));
      }
      const switches = actors.filter((actor, i) => i > 0 && actor !== actors[i - 1]).length;
      console.log(`concurrent appends: the chain switches writer ${switches} times`);
      expect(switches, 'the two writers never interleaved').toBeGreaterThan(1);
      const migrations = db.prepare("SELECT COUNT(*) FROM schema_migrations WHERE name = 'audit/001-log'");
      expect(migrations.pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
