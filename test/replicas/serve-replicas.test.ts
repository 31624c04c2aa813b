import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgStore } from '../../src/core/store/postgres/pool.js';
import { MIGRATIONS } from '../../src/core/store/postgres/schema/index.js';
import { until } from '../helpers/approvals.js';
import { runCli } from '../helpers/cli.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';
import {
  APPROVERS,
  approvalPost,
  approvalPosts,
  approvalsPolicyYaml,
  PEOPLE,
  shown,
  waitShown,
  whereIs,
} from '../helpers/slack-approvals.js';
import { buttonsOf, textOf } from '../helpers/slack-requests.js';
import { type ReplicaSet, type ServeProcess, startReplicaSet } from './serve-process.js';

const available = await postgresAvailable();

/** What the sandbox carried out of `payouts.create` (a replayed request is not carried out again). */
const carried: (string | undefined)[] = [];
/** A hold on the next payout's answer: the money has moved, the caller has not heard. */
let hold: { arrived: () => void; released: Promise<void> } | undefined;
const releases: (() => void)[] = [];

function holdNextPayout(): { arrived: Promise<void>; release: () => void } {
  let arrived = (): void => {};
  let release = (): void => {};
  const arrival = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  releases.push(release);
  hold = { arrived, released };
  return { arrived: arrival, release };
}

const payout = (amount: number) =>
  `payout ${amount} USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED`;

/**
 * Two (then three) `bankops serve` processes, each with its own HOME, on one PostgreSQL database,
 * one sandbox and the Slack stand-in: votes through both, a replica SIGKILLed while its payout is
 * at the service, the survivor finishing it once its (short) lease ran out.
 */
describe.skipIf(!available)('bankops serve replicas on one PostgreSQL database', () => {
  const database = useTestDatabase();
  let set: ReplicaSet;
  let a: ServeProcess;
  let b: ServeProcess;
  let c: ServeProcess | undefined;
  const approvals: string[] = [];

  /** `/bank <text>` as `user` through `replica`; the approval id its answer names. */
  async function request(replica: ServeProcess, text: string): Promise<string> {
    const { id, response } = await replica.slack.command(PEOPLE.olivia, text);
    expect(response.status).toBe(200);
    // The answer that names the approval (a busy replica says "Working on…" first).
    const approval = await set.api.waitFor(() =>
      set.api
        .answersTo(id)
        .map((post) => /apr_\w+/.exec(textOf(post.body))?.[0])
        .find(Boolean),
    );
    approvals.push(approval);
    await set.api.waitFor(() => approvalPost(set.api, approval), 15_000);
    return approval;
  }

  /** Clicks Approve on the approval's message as `user`, through `replica`; the click's answer id. */
  async function approve(replica: ServeProcess, user: string, approval: string): Promise<string> {
    const button = buttonsOf(shown(set.api, approval) ?? {}).find((x) => x.text === 'Approve');
    if (button === undefined) throw new Error(`no Approve on ${approval}`);
    const { id, response } = await replica.slack.click(user, button, {
      channel: whereIs(set.api, approval)?.channel ?? '',
    });
    expect(response.status).toBe(200);
    return id;
  }

  /** The answer to a command or click that says `text` (a busy replica may say "Working on…" first). */
  const answerWith = (id: string, text: string): Promise<string> =>
    set.api.waitFor(() =>
      set.api
        .answersTo(id)
        .map((post) => textOf(post.body))
        .find((t) => t.includes(text)),
    );

  // One pool for the test's own reads: one per read (they poll) would keep a connection each.
  let reads: PgStore | undefined;
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    reads ??= database.store();
    return (await reads.pool.query(sql, params)).rows as T[];
  };

  /** The Slack group's cursor at the feed's head and nothing left in the outbox. */
  const quiet = async (): Promise<boolean> => {
    const [row] = await query<{ cursor: number | null; head: number; outbox: number }>(
      `SELECT (SELECT seq FROM feed_cursors WHERE consumer = 'slack-approvals') AS cursor,
              (SELECT coalesce(max(seq), 0) FROM approval_events) AS head,
              (SELECT count(*) FROM slack_outbox WHERE done_at IS NULL)::int AS outbox`,
    );
    return row !== undefined && row.cursor === row.head && row.outbox === 0;
  };

  beforeAll(async () => {
    set = await startReplicaSet({
      databaseUrl: database.url(),
      policyYaml: approvalsPolicyYaml(),
      leaseSeconds: 2,
      logLevel: 'debug',
      sandbox: {
        beforeAnswer: ({ operation, requestId }) => {
          if (operation !== 'payouts.create') return undefined;
          carried.push(requestId);
          const held = hold;
          hold = undefined;
          held?.arrived();
          return held?.released;
        },
      },
    });
    // Started together on an empty database: the schema lock lets one of them migrate.
    [a, b] = await Promise.all([set.start('replica-a'), set.start('replica-b')]);
  });
  afterAll(async () => {
    for (const release of releases) release();
    expect(set?.api.problems ?? []).toEqual([]);
    await set?.close();
  });

  it('takes the votes of one approval through both replicas and pays once', async () => {
    const fromA = await request(a, payout(60_001));
    const fromB = await request(b, payout(60_002));
    for (const approval of [fromA, fromB]) {
      // Two approvers (a large payout): the first through one replica, the second through the other.
      const first = await approve(a, APPROVERS[0] ?? '', approval);
      expect(await answerWith(first, '1 of 2')).toContain(approval);
      await waitShown(set.api, approval, /1 of 2/);
      const second = await approve(b, APPROVERS[1] ?? '', approval);
      expect(await answerWith(second, 'Executed')).toContain(approval);
      await waitShown(set.api, approval, 'Sent: payout');
    }
    expect(carried).toHaveLength(2);
  });

  it('finishes, on the survivor, a payout whose replica was SIGKILLed mid-payout: one payout, same request id', async () => {
    const approval = await request(b, payout(120));
    const { arrived, release } = holdNextPayout();
    // Replica A takes the deciding vote and sends the payout; the sandbox pays and holds the answer.
    await approve(a, APPROVERS[2] ?? '', approval);
    await arrived;
    // Nothing in flight for Slack when it dies, so each event's handling below is counted once.
    await until(quiet, 'Slack to be caught up before the kill', 15_000);
    // What people see while the replica that holds it is gone: executing (⚙️), until the lease ends.
    expect(textOf(shown(set.api, approval) ?? {})).toContain(':gear:');
    await a.kill();
    release();
    // A third replica starts meanwhile, on the database the others migrated.
    c = await set.start('replica-c');

    await waitShown(set.api, approval, 'Sent: payout', 30_000);
    const [row] = await query<{ state: string; request_id: string; owner: string | null }>(
      'SELECT state, request_id, owner FROM approvals WHERE id = $1',
      [approval],
    );
    expect(row?.state).toBe('succeeded');
    // The sandbox carried it out once, under the approval's request id; the survivor's send of
    // the same request id was answered from the first (stats count both requests).
    expect(carried.filter((id) => id === row?.request_id)).toHaveLength(1);
    expect(carried).toHaveLength(3);
    expect(set.sandbox.stats()['payouts.create']).toBe(4);
  });

  it('posted every approval message once, handled each feed event once in the group, kept one verified chain, migrated once', async () => {
    await until(quiet, 'Slack to be caught up', 15_000);
    for (const approval of approvals) {
      expect(approvalPosts(set.api, approval)).toHaveLength(1);
      const ts = whereIs(set.api, approval)?.ts;
      const edits = set.api.callsOf('chat.update').filter((call) => call.args.ts === ts);
      const contents = edits.map((call) => JSON.stringify(call.args.blocks));
      expect(new Set(contents).size).toBe(contents.length);
      const thread = set.api.callsOf('chat.postMessage').filter((call) => call.args.thread_ts === ts);
      expect(new Set(thread.map((call) => call.args.text)).size).toBe(thread.length);
    }

    const replicas = [a, b, ...(c === undefined ? [] : [c])];
    const handled = replicas.flatMap((replica) =>
      replica
        .logs()
        .filter((line) => line.message === 'slack: approval change handled')
        .map((line) => ({ seq: line.seq as number, by: replica.name })),
    );
    const events = await query<{ seq: number }>('SELECT seq FROM approval_events ORDER BY seq');
    expect(handled.map((h) => h.seq).sort((x, y) => x - y)).toEqual(events.map((e) => e.seq));
    // The killed replica's payout finished on a survivor, which also told Slack.
    const finished = replicas.flatMap((replica) =>
      replica
        .logs()
        .filter((line) => line.message === 'slack: approval change handled' && line.kind === 'succeeded')
        .map((line) => ({ approval: line.approvalId, by: replica.name })),
    );
    expect(finished.find((f) => f.approval === approvals[2])?.by).not.toBe('replica-a');
    // The survivor that took it over said so, once, naming the dead replica's lease.
    const takeovers = replicas.flatMap((replica) =>
      replica
        .logs()
        .filter((line) => line.message === 'execution taken over')
        .map((line) => ({ approval: line.approvalId, by: replica.name, level: line.level })),
    );
    // (Any survivor may take it over; which one tells Slack is the feed group's choice.)
    expect(takeovers).toHaveLength(1);
    expect(takeovers[0]).toMatchObject({ approval: approvals[2], level: 'warn' });
    expect(takeovers[0]?.by).not.toBe('replica-a');

    const migrated = replicas.flatMap((replica) =>
      replica.logs().filter((line) => line.message === 'database migrated'),
    );
    // Every version this code knows, once (the numbers are handed out per change: not always 1..N).
    expect(migrated.map((line) => line.applied)).toEqual([
      MIGRATIONS.map((m) => m.version).sort((x, y) => x - y),
    ]);

    // They log in as the server's superuser: each says the database alone does not guard the log.
    for (const replica of replicas) {
      expect(replica.stderr()).toContain("warning: postgres owns the audit log's table");
      expect(
        replica
          .logs()
          .filter((line) => line.level === 'warn' && String(line.message).startsWith('postgres owns')),
      ).toHaveLength(1);
    }

    const verify = await runCli(['audit', 'verify'], {
      BANKOPS_DATABASE_URL: database.url(),
      BANKOPS_FINGERPRINT_KEY_FILE: set.keyFile,
    });
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^audit log intact: \d+ entries\n/);
  });
});
