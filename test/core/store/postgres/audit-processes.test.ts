import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyAuditLog } from '../../../../src/core/store/postgres/audit-verify.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';

const child = fileURLToPath(new URL('../../../helpers/postgres-audit-child.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const available = await postgresAvailable();

function startReplica(url: string, name: string, count: number) {
  const running = spawn(process.execPath, ['--import', 'tsx', child, url, name, String(count)], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: running.stdout });
  const ready = new Promise<void>((resolve) => lines.once('line', () => resolve()));
  return { process: running, ready };
}

describe.skipIf(!available)('the PostgreSQL audit chain with replicas in several processes', () => {
  const db = useTestDatabase();

  it('keeps one chain when two processes append 300 entries each at once', async () => {
    const store = db.store();
    await migrate(store);
    const replicas = [startReplica(db.url(), 'alpha', 300), startReplica(db.url(), 'beta', 300)];
    await Promise.all(replicas.map((r) => r.ready));
    for (const r of replicas) r.process.stdin.write('go\n');
    const codes = await Promise.all(replicas.map(async (r) => (await once(r.process, 'exit'))[0]));
    expect(codes).toEqual([0, 0]);
    expect(await verifyAuditLog(store.pool)).toMatchObject({ ok: true, entries: 600, headSeq: 600 });
    const byActor = await store.pool.query(
      'SELECT actor, count(*)::int AS n FROM audit_log GROUP BY actor ORDER BY actor',
    );
    expect(byActor.rows).toEqual([
      { actor: 'cli:alpha', n: 300 },
      { actor: 'cli:beta', n: 300 },
    ]);
  });
});
