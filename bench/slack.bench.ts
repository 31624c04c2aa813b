// Slack: how fast `/slack/events` acknowledges a slash command while the service takes 5 s to
// answer (Slack gives up after 3 s). The real Bolt app on the shared listener, in production mode
// (the answer goes out as soon as the listener acknowledges), signed requests as Slack sends them,
// the Web API stand-in of the tests and the sandbox with 5 s of injected latency.
// Run: npx tsx bench/slack.bench.ts [commands] [concurrency]
import { raw } from '../test/helpers/sandbox.js';
import { startSlackTest, USERS } from '../test/helpers/slack-app.js';
import { textOf } from '../test/helpers/slack-requests.js';

const COMMANDS = Number(process.argv[2] ?? 300);
const CONCURRENCY = Number(process.argv[3] ?? 10);
const WARMUP = 20;

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

const t = await startSlackTest({ processBeforeResponse: false });
try {
  const fault = await raw(t.sandbox, 'POST', '/_sandbox/faults', {
    headers: { 'content-type': 'application/json' },
    body: { path: '/svc/banking/api/v1/accounts/balances', latencyMs: 5_000 },
  });
  if (fault.status !== 200) throw new Error(`fault injection failed: ${JSON.stringify(fault.body)}`);

  const ackMs = async (): Promise<number> => {
    const started = performance.now();
    const { response } = await t.slack.command(USERS.viewer, 'balances');
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/slack/events answered ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i += 1) await ackMs();

  const samples: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < COMMANDS) {
      next += 1;
      samples.push(await ackMs());
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = performance.now() - started;
  samples.sort((a, b) => a - b);
  const p50 = quantile(samples, 0.5);
  const p99 = quantile(samples, 0.99);
  console.log('\nSlack: acknowledging /bank balances while the service takes 5 s');
  console.log(
    `  ${COMMANDS} signed slash commands, ${CONCURRENCY} at a time, ${(COMMANDS / (elapsed / 1000)).toFixed(0)} per second`,
  );
  console.log(
    `  ack latency p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${samples.at(-1)?.toFixed(1)} ms`,
  );
  console.log(`  goal p99 < 100 ms: ${p99 < 100 ? 'met' : 'NOT met'} (Slack's limit is 3,000 ms)`);
  // Every command is answered later, after the service's 5 s: the acknowledgement did not wait for it.
  const answered = () =>
    new Set(t.api.responses.filter((r) => !textOf(r.body).includes('Working on')).map((r) => r.id)).size;
  await t.api.waitFor(() => answered() >= COMMANDS + WARMUP, 60_000);
  console.log(
    `  all ${COMMANDS + WARMUP} answers followed through response_url; Slack checks: ${t.api.problems.length === 0 ? 'clean' : t.api.problems.join('; ')}`,
  );
} finally {
  await t.close();
}
