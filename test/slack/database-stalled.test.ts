import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fault } from '../helpers/approvals.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';
import { type SlackTest, USERS } from '../helpers/slack-app.js';
import { askApproval, clickButton, openPayoutForm, pressButton, shown } from '../helpers/slack-approvals.js';
import { type GatedSlack, startGatedSlack } from '../helpers/slack-gated.js';
import { buttonsOf, type Payload, textOf } from '../helpers/slack-requests.js';
import type { TcpGate } from '../helpers/tcp-gate.js';

const available = await postgresAvailable();

/** Slack's limit for acknowledging a request: past it, Slack shows the person its own error. */
const SLACK_ACK_MS = 3_000;

/**
 * The database's network silently stops carrying packets (connections stay open, nothing answers)
 * while people submit forms: the reject reason, the reconcile reason and a tool's form. Every form
 * is acknowledged within Slack's 3 seconds, as nothing is read before the acknowledgement, and the
 * person is told "bankops cannot reach its database" where they clicked once the query gives up.
 * (A database that refuses connections: database-down.test.ts.)
 */
describe.skipIf(!available)('Slack forms while the database stops answering', () => {
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

  /** Opens the form a button of the approval's message opens; the click's id is where it answers. */
  async function formOf(user: string, approvalId: string, label: string) {
    const opened = t.api.callsOf('views.open').length;
    const click = await pressButton(t, user, approvalId, label);
    const view = (await t.api.waitFor(() => t.api.callsOf('views.open')[opened])).args.view as Payload;
    return { click, view };
  }

  /** Submits and times the acknowledgement. */
  async function timedSubmit(
    user: string,
    view: Payload,
    values: Parameters<SlackTest['slack']['submit']>[2],
  ) {
    const started = performance.now();
    const response = await t.slack.submit(user, view, values);
    const body = await response.text();
    return { status: response.status, body, ms: performance.now() - started };
  }

  const told = (id: string) =>
    t.api.waitFor(
      () =>
        t.api.answersTo(id).find((post) => textOf(post.body).includes('bankops cannot reach its database')),
      // The query timeout (20 s) and a loaded machine: returns as soon as the answer is there.
      90_000,
    );

  it('acknowledges the reject, reconcile and tool forms at once, then tells each person the database is away', async () => {
    const pending = await askApproval(
      t,
      USERS.operator,
      'payout 303 USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED',
    );
    const unresolved = await askApproval(
      t,
      USERS.operator,
      'payout 304 USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED',
    );
    await fault(t, '/svc/banking/api/v1/payouts', { status: 503 });
    expect(await clickButton(t, USERS.treasurer, unresolved, 'Approve')).toContain('Outcome unknown');
    await t.api.waitFor(() => buttonsOf(shown(t.api, unresolved) ?? {}).find((b) => b.text === 'Not sent'));

    const reject = await formOf(USERS.treasurer, pending, 'Reject');
    const reconcile = await formOf(USERS.dana, unresolved, 'Not sent');
    const tool = await openPayoutForm(t, USERS.operator);

    gate.stall();
    try {
      const submitted = await Promise.all([
        timedSubmit(USERS.treasurer, reject.view, { reason: 'the invoice names another account' }),
        timedSubmit(USERS.dana, reconcile.view, { reason: 'nothing under this request id' }),
        timedSubmit(USERS.operator, tool.view, tool.values),
      ]);
      for (const ack of submitted) {
        expect(ack.status).toBe(200);
        expect(ack.body).toBe('');
        expect(ack.ms).toBeLessThan(SLACK_ACK_MS);
      }
      const answers = await Promise.all([told(reject.click), told(reconcile.click), told(tool.command)]);
      for (const answer of answers) expect(answer.body.response_type).toBe('ephemeral');
    } finally {
      await gate.shut();
      await gate.open();
    }
    expect((await t.runtime.executor.getApproval(pending))?.state).toBe('pending');
    expect((await t.runtime.executor.getApproval(unresolved))?.state).toBe('unresolved');
    // Three forms each wait out the 20 s query timeout, after two approvals and a fault: on a busy
    // machine that is more than the suite's 60 s; the waits inside return as soon as events happen.
  }, 180_000);
});
