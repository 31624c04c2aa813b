// Replicas of `bankops serve` (the built binary, one process each) on PostgreSQL on loopback, with
// the Slack Web API stand-in of the tests and one sandbox. In one run:
//   (a) a vote → the approval message edited at the stand-in (chat.update received), p99 with one
//       replica and with two (votes alternating between them), goal: two ≤ 2× one;
//   (b) 100 approvals voted at once over two replicas: one payout each at the sandbox, the vote's
//       latency (click → its answer, "Executed") reported.
// Needs PostgreSQL at BANKOPS_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test);
// none: skipped. Run: npx tsx bench/replicas.bench.ts [votes] [concurrent]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { asServerAdmin, TEST_SERVER_URL, urlFor } from '../test/helpers/postgres.js';
import {
  APPROVERS,
  approvalPost,
  approvalsPolicyYaml,
  PEOPLE,
  shown,
  waitShown,
  whereIs,
} from '../test/helpers/slack-approvals.js';
import { buttonsOf, textOf } from '../test/helpers/slack-requests.js';
import { type ReplicaSet, type ServeProcess, startReplicaSet } from '../test/replicas/serve-process.js';

const VOTES = Number(process.argv[2] ?? 100);
const CONCURRENT = Number(process.argv[3] ?? 100);

const admin = (sql: string): Promise<void> =>
  asServerAdmin((client) => client.query(sql)).then(() => undefined);

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

const sorted = (samples: number[]): number[] => [...samples].sort((x, y) => x - y);

const payout = (amount: number) =>
  `payout ${amount} USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED`;

/** `/bank payout …` as Olivia through `replica`; the approval id, once its message is posted. */
async function request(set: ReplicaSet, replica: ServeProcess, amount: number): Promise<string> {
  const { id } = await replica.slack.command(PEOPLE.olivia, payout(amount));
  // The answer that names the approval (a busy replica says "Working on…" first).
  const approval = await set.api.waitFor(
    () =>
      set.api
        .answersTo(id)
        .map((post) => /apr_\w+/.exec(textOf(post.body))?.[0])
        .find(Boolean),
    30_000,
  );
  await set.api.waitFor(() => approvalPost(set.api, approval), 30_000);
  return approval;
}

/** Clicks Approve as `user` through `replica`; the click's answer id and when it was sent. */
async function click(
  set: ReplicaSet,
  replica: ServeProcess,
  user: string,
  approval: string,
): Promise<{ id: string; clicked: number }> {
  const button = buttonsOf(shown(set.api, approval) ?? {}).find((b) => b.text === 'Approve');
  const where = whereIs(set.api, approval);
  if (button === undefined || where === undefined) throw new Error(`no Approve on ${approval}`);
  const clicked = Date.now();
  const { id, response } = await replica.slack.click(user, button, { channel: where.channel });
  await response.arrayBuffer();
  return { id, clicked };
}

/** A set of `replicas` serve processes on a database of its own, dropped by `close`. */
async function withReplicas<T>(
  label: string,
  replicas: number,
  work: (set: ReplicaSet, serves: ServeProcess[]) => Promise<T>,
): Promise<T> {
  const name = `bankops_bench_${process.pid}_${label}`;
  await admin(`CREATE DATABASE ${name}`);
  const set = await startReplicaSet({ databaseUrl: urlFor(name), policyYaml: approvalsPolicyYaml() });
  try {
    const serves: ServeProcess[] = [];
    // One at a time: the first migrates, the next find the schema current.
    for (let i = 0; i < replicas; i += 1) serves.push(await set.start(`${label}-${i + 1}`));
    const result = await work(set, serves);
    if (set.api.problems.length > 0) throw new Error(`Slack checks: ${set.api.problems.join('; ')}`);
    return result;
  } finally {
    await set.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/**
 * (a) Large payouts need two approvers: one vote only edits the message ("1 of 2"). Votes one after
 * another, alternating between the replicas; ms from the click to the stand-in's chat.update.
 */
async function voteToEdit(set: ReplicaSet, serves: ServeProcess[]): Promise<number[]> {
  const approvals: string[] = [];
  for (let i = 0; i < VOTES; i += 1) {
    approvals.push(await request(set, serves[i % serves.length] as ServeProcess, 60_000 + i));
  }
  const samples: number[] = [];
  for (const [i, approval] of approvals.entries()) {
    const where = whereIs(set.api, approval);
    const { clicked } = await click(
      set,
      serves[i % serves.length] as ServeProcess,
      APPROVERS[0] ?? '',
      approval,
    );
    const update = await set.api.waitFor(
      () =>
        set.api
          .callsOf('chat.update')
          .find((c) => c.args.ts === where?.ts && c.at >= clicked && textOf(c.args).includes('1 of 2')),
      30_000,
    );
    samples.push(update.at - clicked);
  }
  return samples;
}

/** (b) Small payouts (one approver), every vote at once, spread over the replicas. */
async function concurrentApprovals(
  set: ReplicaSet,
  serves: ServeProcess[],
): Promise<{ latencies: number[]; creates: number; seconds: number }> {
  const approvals: string[] = [];
  for (let i = 0; i < CONCURRENT; i += 10) {
    const batch = Array.from({ length: Math.min(10, CONCURRENT - i) }, (_, j) => i + j);
    approvals.push(
      ...(await Promise.all(
        batch.map((n) => request(set, serves[n % serves.length] as ServeProcess, 100 + n)),
      )),
    );
  }
  const started = Date.now();
  const latencies = await Promise.all(
    approvals.map(async (approval, n) => {
      const { id, clicked } = await click(
        set,
        serves[n % serves.length] as ServeProcess,
        APPROVERS[n % APPROVERS.length] ?? '',
        approval,
      );
      const answer = await set.api.waitFor(() => {
        const last = set.api.answersTo(id).at(-1);
        return last !== undefined && textOf(last.body).includes('Executed') ? last : undefined;
      }, 120_000);
      return answer.at - clicked;
    }),
  );
  for (const approval of approvals) await waitShown(set.api, approval, 'Sent: payout', 60_000);
  const seconds = (Date.now() - started) / 1000;
  return { latencies, creates: set.sandbox.stats()['payouts.create'] ?? 0, seconds };
}

const unreachable = await admin('SELECT 1').then(
  () => undefined,
  (error: unknown) => (error instanceof Error ? error.message : String(error)),
);
if (unreachable !== undefined) {
  console.log(`replicas: skipped, no PostgreSQL at ${TEST_SERVER_URL} (${unreachable})`);
} else {
  // The replicas run the built binary: built first when older than its sources.
  const root = join(import.meta.dirname, '..');
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('building dist/ failed');

  const one = sorted(await withReplicas('one', 1, voteToEdit));
  const two = sorted(await withReplicas('two', 2, voteToEdit));
  const p99 = (samples: number[]) => quantile(samples, 0.99);
  console.log('\nReplicas on PostgreSQL: a vote → the approval message edited (chat.update received)');
  for (const [label, samples] of [
    ['one replica ', one],
    ['two replicas', two],
  ] as const) {
    console.log(
      `  ${label}: p50 ${quantile(samples, 0.5).toFixed(0)} ms, p99 ${p99(samples).toFixed(0)} ms, max ${samples.at(-1)?.toFixed(0)} ms (${samples.length} votes)`,
    );
  }
  console.log(`  p99 two / one: ${(p99(two) / p99(one)).toFixed(2)}× (goal ≤ 2×)`);

  const b = await withReplicas('many', 2, concurrentApprovals);
  const latencies = sorted(b.latencies);
  console.log(`\nReplicas on PostgreSQL: ${CONCURRENT} approvals voted at once over two replicas`);
  console.log(
    `  vote → "Executed": median ${quantile(latencies, 0.5).toFixed(0)} ms, p99 ${quantile(latencies, 0.99).toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms; every message "Sent: payout" after ${b.seconds.toFixed(1)} s`,
  );
  console.log(
    `  payouts at the sandbox: ${b.creates} for ${CONCURRENT} approvals (${b.creates === CONCURRENT ? 'one each' : 'NOT one each'})`,
  );
}
