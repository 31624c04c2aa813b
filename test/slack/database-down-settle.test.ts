import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockKey } from '../../src/core/store/postgres/locks.js';
import { fault } from '../helpers/approvals.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';
import { type SlackTest, USERS } from '../helpers/slack-app.js';
import { askApproval, clickButton, pressButton, shown, whereIs } from '../helpers/slack-approvals.js';
import { type GatedSlack, startGatedSlack } from '../helpers/slack-gated.js';
import { buttonsOf, type Payload, textOf } from '../helpers/slack-requests.js';
import type { TcpGate } from '../helpers/tcp-gate.js';

const available = await postgresAvailable();

/**
 * Settling an unresolved approval from Slack (Sent, Not sent, Send again), and voting, while the
 * database cannot be reached: a form that has closed already, or a button already acknowledged,
 * still tells the person, and nothing is settled or counted.
 * (The other Slack answers while it is away: database-down.test.ts.)
 */
describe.skipIf(!available)('Slack settling an approval while the database cannot be reached', () => {
  const database = useTestDatabase();
  let app: GatedSlack;
  let gate: TcpGate;
  let t: SlackTest;

  beforeAll(async () => {
    app = await startGatedSlack(database, {
      slack: { groups: { missRefreshMs: 0 } },
      config: { approvalsChannel: 'C0APPROVALS' },
      // One send, no re-sends: a payout the service does not answer is unresolved at once.
      core: { resendDelaysMs: [], resendWindowMs: 0 },
    });
    ({ gate, t } = app);
  });
  afterAll(() => app?.close());

  /**
   * Runs `steps` while bankops's write transactions wait: the test holds the advisory lock they
   * take first, on its own connection (not through the gate). The gate is open again after.
   */
  async function whileWritesWait(steps: () => Promise<void>): Promise<void> {
    const holder = await database.store().pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [LockKey.Storage]);
      await steps();
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await gate.open();
    }
  }

  // The form is acknowledged (closed) before the approval is settled: the database going away in
  // between can no longer be answered on the form. bankops's write transactions take one advisory
  // lock first; the test holds it on its own connection (not through the gate), so the settlement
  // cannot get past it before the gate shuts, whenever it starts.
  it('tells a person whose Send again form meets the database away, before or after it closed, and settles nothing', async () => {
    const id = await askApproval(
      t,
      USERS.operator,
      'payout 301 USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED',
    );
    await fault(t, '/svc/banking/api/v1/payouts', { status: 503 });
    expect(await clickButton(t, USERS.treasurer, id, 'Approve')).toContain('Outcome unknown');
    expect((await t.runtime.executor.getApproval(id))?.state).toBe('unresolved');
    const again = await t.api.waitFor(() =>
      buttonsOf(shown(t.api, id) ?? {}).find((b) => b.text === 'Send again'),
    );
    const opened = t.api.callsOf('views.open').length;
    const click = await t.slack.click(USERS.dana, again, { channel: whereIs(t.api, id)?.channel ?? '' });
    const modal = (await t.api.waitFor(() => t.api.callsOf('views.open')[opened])).args.view as Payload;

    // Away when the form is submitted: it closes before its approval is read, and the person is
    // told where they clicked.
    await gate.shut();
    try {
      const early = await t.slack.submit(USERS.dana, modal, { reason: 'nothing under this request id' });
      expect(await early.text()).toBe('');
      const [told] = await t.api.answers(click.id);
      expect(textOf(told?.body ?? {})).toContain('bankops cannot reach its database');
    } finally {
      await gate.open();
    }

    await whileWritesWait(async () => {
      const submitted = await t.slack.submit(USERS.dana, modal, { reason: 'nothing under this request id' });
      expect(submitted.status).toBe(200);
      expect(await submitted.text()).toBe('');
      await gate.shut();
      const answer = (await t.api.answers(click.id, 2)).at(-1);
      expect(textOf(answer?.body ?? {})).toContain('bankops cannot reach its database');
      expect(textOf(answer?.body ?? {})).toContain('Try again once it is back');
      expect(answer?.body.response_type).toBe('ephemeral');
    });
    expect((await t.runtime.executor.getApproval(id))?.state).toBe('unresolved');
    const entries = await t.runtime.audit.list({ approvalId: id, limit: 100 });
    expect(entries.filter((e) => e.decision === 'reconciled')).toEqual([]);
  });

  // A button is acknowledged before its listener reads or writes anything: the database going away
  // after that is told through the message's response_url (the receiver takes the second
  // acknowledgement as said already, and the answer still goes).
  it('tells an approver whose Approve click meets the database away after it was acknowledged, and counts no vote', async () => {
    const id = await askApproval(
      t,
      USERS.operator,
      'payout 302 USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED',
    );
    await whileWritesWait(async () => {
      const click = await pressButton(t, USERS.treasurer, id, 'Approve');
      await gate.shut();
      const [answer] = await t.api.answers(click, 1, 20_000);
      expect(textOf(answer?.body ?? {})).toContain('bankops cannot reach its database');
      expect(answer?.body.response_type).toBe('ephemeral');
    });
    const view = await t.runtime.executor.getApproval(id);
    expect(view?.state).toBe('pending');
    expect(view?.approvals).toEqual([]);
  });
});
