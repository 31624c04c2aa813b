// `/metrics` of `bankops serve` with 10,000 approvals in the database: the scrape's time as
// Prometheus sees it (HTTP on loopback), the database's numbers read at each scrape. Target: p99 ≤ 20 ms.
// Run: npx tsx bench/metrics.bench.ts [approvals] [scrapes]
import { randomUUID } from 'node:crypto';
import { ServeMetrics } from '../src/app/metrics/metrics.js';
import { startServe } from '../src/app/serve.js';
import { APPROVAL_STATES } from '../src/core/approvals/view-schema.js';
import { PAYOUT, pending } from '../test/helpers/approvals.js';
import { createTestCore } from '../test/helpers/core.js';

const APPROVALS = Number(process.argv[2] ?? 10_000);
const SCRAPES = Number(process.argv[3] ?? 1_000);

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

const metrics = new ServeMetrics();
const c = await createTestCore({ observe: { observe: metrics.observe, onServiceCall: metrics.serviceCall } });
const serve = await startServe({
  runtime: c.runtime,
  host: '127.0.0.1',
  port: 0,
  settings: { slack: { enabled: false, why: 'bench' } },
  metrics,
});
try {
  // One real approval, copied into every state (a tenth pending), as a busy install's history looks.
  const model = pending(await c.call('create_payout', PAYOUT));
  const row = await c.runtime.storage.read((s) => s.approvals.byId(model.id));
  if (row === undefined) throw new Error('the model approval is not stored');
  const started = Date.now();
  await c.runtime.storage.transaction(async (tx) => {
    for (let i = 1; i < APPROVALS; i += 1) {
      const at = new Date(started - i * 60_000).toISOString();
      const state = i % 10 === 0 ? 'pending' : (APPROVAL_STATES[i % APPROVAL_STATES.length] ?? 'expired');
      await tx.approvals.insert({
        ...row,
        id: randomUUID(),
        fingerprint: randomUUID(),
        requestId: randomUUID(),
        state,
        createdAt: at,
        updatedAt: at,
      });
    }
    await tx.feed.advance('bench-consumer', 0, new Date().toISOString());
  });
  for (let i = 0; i < 50; i += 1) await c.call('list_accounts');

  const times: number[] = [];
  let body = '';
  for (let i = 0; i < SCRAPES + 50; i += 1) {
    const t0 = performance.now();
    const res = await fetch(`${serve.url}/metrics`);
    body = await res.text();
    if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
    if (i >= 50) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  // The same work without HTTP and the client in this process: what the server itself spends.
  const inside: number[] = [];
  const census: number[] = [];
  for (let i = 0; i < SCRAPES; i += 1) {
    const t0 = performance.now();
    await c.runtime.storage.read((s) => s.approvals.census());
    const t1 = performance.now();
    await metrics.scrape({ storage: c.runtime.storage });
    census.push(t1 - t0);
    inside.push(performance.now() - t1);
  }
  inside.sort((a, b) => a - b);
  census.sort((a, b) => a - b);
  const lines = body.split('\n').filter((l) => l.startsWith('bankops_approvals'));
  console.log(`metrics: ${APPROVALS} approvals, ${SCRAPES} scrapes, ${body.length} bytes each`);
  console.log(
    `  /metrics p50 ${quantile(times, 0.5).toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms, max ${(times.at(-1) ?? 0).toFixed(2)} ms (target p99 ≤ 20 ms)`,
  );
  console.log(
    `  in-process scrape p50 ${quantile(inside, 0.5).toFixed(2)} ms, p99 ${quantile(inside, 0.99).toFixed(2)} ms; of which the approvals census p50 ${quantile(census, 0.5).toFixed(2)} ms, p99 ${quantile(census, 0.99).toFixed(2)} ms`,
  );
  console.log(`  ${lines.join('\n  ')}`);
} finally {
  await serve.close();
  await c.close();
}
