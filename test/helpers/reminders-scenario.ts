import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { createSlackApp, type SlackFrontEnd } from '../../src/slack/app.js';
import { slackStores } from '../../src/slack/store/backend.js';
import { approvalRow } from './approval-rows.js';
import { manualClock } from './clock.js';
import { runtimeOptions, testConfig } from './core.js';
import type { ApiCall } from './slack-api.js';
import { type SlackTest, startSlackTest } from './slack-app.js';
import {
  APPROVALS_CHANNEL,
  APPROVERS,
  APPROVERS_GROUP,
  approvalsPolicyYaml,
  askApproval,
  clickButton,
  PEOPLE,
  TREASURY_CHANNEL,
  threadOf,
  whereIs,
} from './slack-approvals.js';
import { textOf } from './slack-requests.js';

/** Where the replicas keep everything: the SQLite file of the test (default), or PostgreSQL. */
export interface ScenarioDatabase {
  url: string;
  fingerprintKeyFile: string;
}

/**
 * Reminders and the morning digest, with two replicas (two runtimes, two Slack apps, one
 * database) running the scheduled jobs side by side, so every "once" below is once across replicas. The
 * clock is moved, never waited for; the digest is at 09:00 Europe/Berlin (08:00 UTC in November).
 */

const LEAD = 'U0LEAD';
const LEAD_CLI_SLACK = 'U0LEADCLI';
const PAYOUTS = '/svc/banking/api/v1/payouts';
const clock = manualClock('2026-11-26T07:00:00Z');
const digest = { hour: 9, minute: 0, zone: 'Europe/Berlin' };

/** The approval tests' policy, plus an approver by Slack user and one by CLI name tied to a Slack user. */
function policyYaml(): string {
  const policy = parse(approvalsPolicyYaml()) as { actors: unknown[] };
  policy.actors.push(
    { match: { slackUser: LEAD }, roles: ['viewer', 'approver'] },
    { match: { cli: 'lead' }, roles: ['approver'], person: 'lead' },
    { match: { slackUser: LEAD_CLI_SLACK }, roles: ['viewer'], person: 'lead' },
  );
  return stringify(policy);
}

/** Registers the scenario's hooks and tests (call inside a `describe`). */
export function remindersScenario(options: { database?: () => ScenarioDatabase } = {}): void {
  let t: SlackTest;
  let replica: { runtime: Runtime; slack: SlackFrontEnd };

  beforeAll(async () => {
    const database = options.database?.();
    t = await startSlackTest({
      ...(database === undefined ? {} : { database }),
      policyYaml: policyYaml(),
      config: { approvalsChannel: APPROVALS_CHANNEL, digest },
      core: { background: true, clock, resendDelaysMs: [], resendWindowMs: 0 },
    });
    t.api.setGroups({ [APPROVERS_GROUP]: APPROVERS });
    // A second replica on the same database file, policy, clock and Slack.
    const runtime = await createRuntime(
      {
        ...testConfig(t.sandbox, { dbPath: `${t.dir}/bankops.db`, policyPath: `${t.dir}/policy.yaml` }),
        ...(database === undefined
          ? {}
          : { databaseUrl: database.url, fingerprintKeyFile: database.fingerprintKeyFile }),
      },
      runtimeOptions({
        clock,
        background: true,
        owner: 'replica-b:2',
        resendDelaysMs: [],
        resendWindowMs: 0,
      }),
    );
    const slack = createSlackApp({
      config: t.serve.slack?.config ?? { mode: 'http', botToken: '', apiUrl: t.api.url },
      runtime,
      stores: await runtime.backend.storesOf(slackStores),
      defaults: runtime.config.defaults,
      outboxPollMs: 50,
      webApiRetries: 0,
    });
    await slack.start();
    replica = { runtime, slack };
  });
  afterAll(async () => {
    await replica?.slack.stop();
    await replica?.runtime.close();
    expect(t.api.problems).toEqual([]);
    await t?.close();
  });

  /** Moves the clock, runs both replicas' jobs and waits until Slack has everything they queued. */
  async function at(iso: string): Promise<void> {
    clock.set(iso);
    await Promise.all([t.runtime.scheduler.runAll(), replica.runtime.scheduler.runAll()]);
    await t.api.waitFor(async () => (await replica.slack.outbox.pending()) === 0);
  }

  /**
   * Makes the database refuse to queue Slack calls (all, or those naming `only`), as a full disk or
   * a lost connection would, until called again with `undefined`: a trigger on the outbox table.
   */
  async function outboxDown(down: { only?: string } | undefined): Promise<void> {
    const database = options.database?.();
    const when = down?.only === undefined ? '' : ` WHEN (CAST(NEW.args_json AS text) LIKE '%${down.only}%')`;
    if (database === undefined) {
      const db = openDatabase(`${t.dir}/bankops.db`);
      try {
        db.exec('DROP TRIGGER IF EXISTS test_outbox_down');
        if (down !== undefined)
          db.exec(
            `CREATE TRIGGER test_outbox_down BEFORE INSERT ON slack_outbox${when} BEGIN SELECT RAISE(ABORT, 'the outbox is down (test)'); END`,
          );
      } finally {
        db.close();
      }
      return;
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('DROP TRIGGER IF EXISTS test_outbox_down ON slack_outbox');
      if (down !== undefined) {
        await client.query(
          `CREATE OR REPLACE FUNCTION test_outbox_down() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'the outbox is down (test)'; END $$ LANGUAGE plpgsql`,
        );
        await client.query(
          `CREATE TRIGGER test_outbox_down BEFORE INSERT ON slack_outbox FOR EACH ROW${when} EXECUTE FUNCTION test_outbox_down()`,
        );
      }
    } finally {
      await client.end();
    }
  }

  /**
   * Asks for an approval and waits until its message is posted and where it is recorded: Slack has
   * the message a moment before the database says where it is, and a reminder needs the latter.
   */
  const ask = async (user: string, text: string): Promise<string> => {
    const id = await askApproval(t, user, text);
    await t.api.waitFor(async () => (await replica.slack.services.approvalMessages.get(id)) !== undefined);
    return id;
  };

  const click = (user: string, approvalId: string, label: string): Promise<string> =>
    clickButton(t, user, approvalId, label);

  async function fault(status: number): Promise<void> {
    const response = await fetch(`${t.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: PAYOUTS, method: 'POST', status, times: 1 }),
    });
    expect(response.ok).toBe(true);
  }

  const payout = (amount: number) =>
    `payout ${amount} USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED`;

  /** The reminder replies in an approval message's thread, as Slack got them. */
  function reminders(approvalId: string): ApiCall[] {
    const where = whereIs(t.api, approvalId);
    return t.api
      .callsOf('chat.postMessage')
      .filter(
        (call) =>
          call.args.channel === where?.channel &&
          call.args.thread_ts === where?.ts &&
          textOf(call.args).includes('Still waiting for approval'),
      );
  }

  /** The digests posted to a channel. */
  const digests = (channel: string): ApiCall[] =>
    t.api
      .callsOf('chat.postMessage')
      .filter((call) => call.args.channel === channel && textOf(call.args).includes('Approvals digest'));

  const ids: Record<'waitingA' | 'votedB' | 'failedC' | 'unresolvedD', string> = {
    waitingA: '',
    votedB: '',
    failedC: '',
    unresolvedD: '',
  };

  describe('reminders', () => {
    it('one after 15 minutes mentioning who may approve, one at half the time left, never a third; none once voted', async () => {
      ids.waitingA = await ask(PEOPLE.olivia, payout(300));
      // Two approvers needed; one votes at once, so it is never reminded.
      ids.votedB = await ask(PEOPLE.olivia, payout(50000));
      expect(await click(APPROVERS[0] ?? '', ids.votedB, 'Approve')).toContain('Vote recorded');
      // Approved, then refused by the service: failed after approval.
      ids.failedC = await ask(PEOPLE.olivia, payout(301));
      await fault(400);
      expect(await click(APPROVERS[1] ?? '', ids.failedC, 'Approve')).toMatch(/fail/i);
      // Approved, then the service did not answer (one send, no re-sends here): unresolved.
      ids.unresolvedD = await ask(PEOPLE.olivia, payout(302));
      await fault(503);
      await click(APPROVERS[2] ?? '', ids.unresolvedD, 'Approve');
      expect((await t.runtime.executor.getApproval(ids.unresolvedD))?.state).toBe('unresolved');
      expect((await t.runtime.executor.getApproval(ids.failedC))?.state).toBe('failed');

      await at('2026-11-26T07:14:50Z');
      expect(reminders(ids.waitingA)).toEqual([]);

      // Due, but the database will not queue it: tried again at the next run, not lost.
      await outboxDown({});
      try {
        await at('2026-11-26T07:15:00Z');
      } finally {
        await outboxDown(undefined);
      }
      expect(reminders(ids.waitingA)).toEqual([]);
      await at('2026-11-26T07:15:30Z');
      const [first] = reminders(ids.waitingA);
      expect(reminders(ids.waitingA)).toHaveLength(1);
      const said = textOf(first?.args ?? {});
      expect(said).toContain('Still waiting for approval');
      expect(said).toContain('Pay 300');
      expect(said).toContain(`<!subteam^${APPROVERS_GROUP}>`);
      expect(said).toContain(`<@${LEAD}>`);
      expect(said).toContain(`<@${LEAD_CLI_SLACK}>`);
      // The requester holds the approver role too, but never approves her own request.
      expect(said).not.toContain(`<@${PEOPLE.olivia}>`);
      expect(said).toContain('Reminder 1 of 2');
      expect(reminders(ids.votedB)).toEqual([]);

      // Half the time left after the first: 15 min + (60 - 15) / 2 = 37 min 30 s after it opened.
      await at('2026-11-26T07:37:29Z');
      expect(reminders(ids.waitingA)).toHaveLength(1);
      await at('2026-11-26T07:37:30Z');
      expect(reminders(ids.waitingA)).toHaveLength(2);
      expect(textOf(reminders(ids.waitingA)[1]?.args ?? {})).toContain('(last reminder)');

      await at('2026-11-26T07:59:00Z');
      expect(reminders(ids.waitingA)).toHaveLength(2);
      expect(reminders(ids.votedB)).toEqual([]);
      for (const id of [ids.failedC, ids.unresolvedD]) expect(reminders(id)).toEqual([]);
      // The thread of the voted approval holds its vote, and nothing more.
      const b = whereIs(t.api, ids.votedB);
      expect(threadOf(t.api, b?.channel ?? '', b?.ts ?? '').join('\n')).not.toContain('Still waiting');
      // Once each across the two replicas: the outbox kept one copy of each key, nothing claimed.
      const claimed = (key: string) => replica.runtime.storage.read((s) => s.claims.claimed(key));
      expect(await claimed(`reminder:${ids.waitingA}:1:1`)).toBe(false);
    });
  });

  describe('the morning digest', () => {
    it('posts at 09:00 Berlin, per approvals channel, what waits, expired, failed and is unresolved, once a day', async () => {
      const waitingE = await ask(PEOPLE.olivia, payout(303));
      await at('2026-11-26T07:59:59Z');
      expect(digests(APPROVALS_CHANNEL)).toEqual([]);

      // One channel's digest cannot be queued: the other's is posted all the same, and the first
      // comes at the next run once the database takes it.
      await outboxDown({ only: APPROVALS_CHANNEL });
      try {
        await at('2026-11-26T08:00:00Z');
      } finally {
        await outboxDown(undefined);
      }
      expect(digests(APPROVALS_CHANNEL)).toEqual([]);
      expect(digests(TREASURY_CHANNEL)).toHaveLength(1);
      await at('2026-11-26T08:00:30Z');
      expect(digests(APPROVALS_CHANNEL)).toHaveLength(1);
      const text = textOf(digests(APPROVALS_CHANNEL)[0]?.args ?? {});
      const section = (title: string) => text.slice(text.indexOf(title)).split('\n\n')[0] ?? '';
      expect(text).toContain('Approvals digest, 2026-11-26');
      expect(text).toContain('1 waiting · 1 expired · 1 failed after approval · 1 unresolved');
      expect(section('Waiting (1)')).toContain(waitingE);
      expect(section('Expired (1)')).toContain(ids.waitingA);
      expect(section('Failed after approval (1)')).toContain(ids.failedC);
      expect(section('Unresolved (1)')).toContain(ids.unresolvedD);
      expect(section('Unresolved (1)')).toContain(`${ids.unresolvedD}-1`);
      // Large payouts are decided in the treasury channel: their digest is there.
      expect(digests(TREASURY_CHANNEL)).toHaveLength(1);
      const treasury = textOf(digests(TREASURY_CHANNEL)[0]?.args ?? {});
      expect(treasury).toContain(ids.votedB);
      expect(treasury).not.toContain(ids.failedC);

      // Not again the same day, whichever replica looks.
      await at('2026-11-26T08:40:00Z');
      await at('2026-11-26T12:00:00Z');
      expect(digests(APPROVALS_CHANNEL)).toHaveLength(1);
      expect(digests(TREASURY_CHANNEL)).toHaveLength(1);

      // The next morning: what failed two days' worth ago is no longer news; the unresolved still is.
      await at('2026-11-27T08:00:10Z');
      expect(digests(APPROVALS_CHANNEL)).toHaveLength(2);
      const next = textOf(digests(APPROVALS_CHANNEL)[1]?.args ?? {});
      expect(next).toContain('Approvals digest, 2026-11-27');
      expect(next).not.toContain(ids.failedC);
      expect(next).toContain(ids.unresolvedD);
      expect(next).toContain(waitingE);
    });
  });

  describe('a new quote', () => {
    it('is a new question: its reminders count from the new quote, up to two again', async () => {
      await at('2026-11-27T10:00:00Z');
      const id = await ask(
        PEOPLE.olivia,
        'payout 1000 USD to ben_de_swift_0001 from acc_usd_0001 destinationRail=SWIFT purposeCode=GOODS_PURCHASED destinationAssetCode=EUR',
      );
      await at('2026-11-27T10:15:00Z');
      await at('2026-11-27T10:37:30Z');
      expect(reminders(id)).toHaveLength(2);
      // The euro rises 30 %: the approval goes back to the approvers as attempt 2 at 10:40.
      const moved = await fetch(`${t.sandbox.url}/_sandbox/banking/rates`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rates: { EUR: 1.085 * 1.3 } }),
      });
      expect(moved.ok).toBe(true);
      clock.set('2026-11-27T10:40:00Z');
      expect(await click(APPROVERS[0] ?? '', id, 'Approve')).toContain('(attempt 2)');
      await fetch(`${t.sandbox.url}/_sandbox/reset`, { method: 'POST' });
      await at('2026-11-27T10:54:50Z');
      expect(reminders(id)).toHaveLength(2);
      await at('2026-11-27T10:55:00Z');
      expect(reminders(id)).toHaveLength(3);
      expect(textOf(reminders(id)[2]?.args ?? {})).toContain('Reminder 1 of 2');
      // Half the time left after it: 10:55 + (11:40 - 10:55) / 2 = 11:17:30.
      await at('2026-11-27T11:17:30Z');
      expect(reminders(id)).toHaveLength(4);
      await at('2026-11-27T11:39:00Z');
      expect(reminders(id)).toHaveLength(4);
    });
  });

  describe('a long digest', () => {
    it('counts every unresolved approval, past one list of 500, and lists ten', async () => {
      // 505 more whose outcome is unknown (written straight to the database both replicas share).
      await t.runtime.storage.transaction(async (tx) => {
        for (let n = 0; n < 505; n += 1)
          await tx.approvals.insert(approvalRow(n, '2026-11-27T12:00:00Z', { state: 'unresolved' }));
      });
      await at('2026-11-28T08:00:10Z');
      const text = textOf(digests(APPROVALS_CHANNEL).at(-1)?.args ?? {});
      expect(text).toContain('Approvals digest, 2026-11-28');
      expect(text).toContain('506 unresolved');
      expect(text).toContain('Unresolved (506)');
      expect(text).toContain('…and 496 more');
    });
  });
}
