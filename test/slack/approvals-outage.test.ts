import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resendPauseMs } from '../../src/core/approvals/retrying.js';
import { until } from '../helpers/approvals.js';
import { runCli } from '../helpers/cli.js';
import { manualClock } from '../helpers/clock.js';
import { sqliteOf } from '../helpers/core.js';
import { raw } from '../helpers/sandbox.js';
import { type SlackTest, startSlackTest } from '../helpers/slack-app.js';
import {
  APPROVALS_CHANNEL,
  APPROVERS,
  APPROVERS_GROUP,
  approvalsPolicyYaml,
  askApproval,
  clickButton,
  cliEnvFor,
  directMessages,
  PEOPLE,
  pressButton,
  shown,
  threadOf,
  waitShown,
  whereIs,
} from '../helpers/slack-approvals.js';
import { buttonsOf, type Payload, textOf } from '../helpers/slack-requests.js';

/**
 * A service outage as `bankops serve` rides it: the sandbox answers 503 to payouts; the approval
 * stays executing and is re-sent in the background with the same request id, the message saying so;
 * past the re-send window (10 minutes, the default) it is unresolved, and is settled from its
 * message (Sent, Not sent, Send again) as `bankops approvals reconcile` does. The approvals' clock
 * is moved by hand to each re-send's time, never waited for.
 */

let t: SlackTest;
const clock = manualClock();
const PAYOUTS = '/svc/banking/api/v1/payouts';
const WINDOW_MS = 10 * 60_000;
/** The engine's default short pauses, with which the background re-sends start. */
const DELAYS = [1000, 4000];

beforeAll(async () => {
  t = await startSlackTest({
    policyYaml: approvalsPolicyYaml(),
    config: { approvalsChannel: APPROVALS_CHANNEL },
    core: { background: true, clock },
  });
  t.api.setGroups({ [APPROVERS_GROUP]: APPROVERS });
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
});

/** Each request its own amount: an identical one would join the approval still open. */
let amount = 300;
function payout(): string {
  amount += 1;
  return `payout ${amount} USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED`;
}

const ask = (user: string, text: string): Promise<string> => askApproval(t, user, text);

const click = (user: string, approvalId: string, label: string): Promise<string> =>
  clickButton(t, user, approvalId, label);

/** Clicks a button that opens a modal; the modal as bankops sent it to views.open. */
/** The form a button opens; its answers, once submitted, go where it was clicked (`lastClick`). */
let lastClick = '';
async function openModal(user: string, approvalId: string, label: string): Promise<Payload> {
  const before = t.api.callsOf('views.open').length;
  // A button that opens a form answers nothing where it was clicked: only the form is waited for.
  lastClick = await pressButton(t, user, approvalId, label);
  const opened = await t.api.waitFor(() => t.api.callsOf('views.open')[before]);
  return opened.args.view as Payload;
}

/** The service is down for payouts: every POST answered 503 until `serviceBack`. */
async function serviceDown(): Promise<void> {
  const answer = await raw(t.sandbox, 'POST', '/_sandbox/faults', {
    headers: { 'content-type': 'application/json' },
    body: { path: PAYOUTS, method: 'POST', status: 503, times: 10_000 },
  });
  expect(answer.status).toBe(200);
}
/** Sends refused by outages that are over. */
let refusedBefore = 0;
async function serviceBack(): Promise<void> {
  refusedBefore += await refusedSends();
  expect((await raw(t.sandbox, 'DELETE', '/_sandbox/faults')).status).toBe(200);
}
/** Payout sends the sandbox answered 503 to so far. */
async function refusedSends(): Promise<number> {
  const { body } = await raw(t.sandbox, 'GET', '/_sandbox/faults');
  const faults = body.data?.faults ?? body.faults ?? [];
  return faults.reduce((n: number, f: { remaining: number | null }) => n + (10_000 - (f.remaining ?? 0)), 0);
}

/** Payout requests the service handled (the sandbox counts the ones it refused too). */
const payoutsCreated = async (): Promise<number> =>
  (t.sandbox.stats()['payouts.create'] ?? 0) - refusedBefore - (await refusedSends());
async function usdAvailable(): Promise<number> {
  const { balances } = await t.runtime.client.accounts.balances({
    companyCode: t.sandbox.credentials.companyId,
  });
  return balances.find((b) => b.currency === 'USD')?.availableBalance ?? Number.NaN;
}
const state = async (id: string) => (await t.runtime.executor.getApproval(id))?.state;
const feedKinds = async (id: string) =>
  (await t.runtime.approvals.feed.after(0, 10_000)).filter((e) => e.approvalId === id).map((e) => e.kind);

/**
 * Moves the clock to each background re-send in turn, from `start` (the first send), while the
 * outage lasts, waiting each time for the sandbox to have refused that send.
 * Returns how many sends were refused.
 */
async function rideOutage(start: number, outageMs: number, alreadyRefused: number): Promise<number> {
  let due = start;
  let refused = alreadyRefused + 1;
  for (let k = 0; ; k += 1) {
    due = Math.min(due + resendPauseMs(k, DELAYS), start + WINDOW_MS);
    if (due >= start + outageMs) return refused;
    // The engine is done with the last send (its outcome recorded, the window checked) once it
    // waits for this one: moving the clock earlier could close the window under it.
    await until(() => clock.waitsUntil(due), `the pause before re-send ${k + 1}`);
    clock.set(new Date(due));
    refused += 1;
    await until(async () => (await refusedSends()) >= refused, `re-send ${k + 1}`);
    if (due >= start + WINDOW_MS) return refused;
  }
}

/** A payout approved in Slack while the service is down; it ends unresolved after the window. */
async function unresolvedPayout(): Promise<string> {
  const id = await ask(PEOPLE.olivia, payout());
  await serviceDown();
  const start = clock.now().getTime();
  const refused = await refusedSends();
  expect(await click(APPROVERS[0] ?? '', id, 'Approve')).toContain('in the background until');
  await until(async () => (await refusedSends()) === refused + 1, 'the first send');
  await rideOutage(start, Number.POSITIVE_INFINITY, refused);
  await until(async () => (await state(id)) === 'unresolved', 'unresolved');
  await serviceBack();
  return id;
}

describe('an outage shorter than the re-send window', () => {
  it('ends with the payout sent once, nobody reconciling, the message having said it retries', async () => {
    const id = await ask(PEOPLE.olivia, payout());
    await serviceDown();
    const start = clock.now().getTime();
    const created = await payoutsCreated();
    const balanceBefore = await usdAvailable();

    // The vote returns at once: the send is retried in the background.
    const answer = await click(APPROVERS[0] ?? '', id, 'Approve');
    expect(answer).toContain('Outcome unknown');
    expect(answer).toContain(`in the background until ${new Date(start + WINDOW_MS).toISOString()}`);
    const retrying = await waitShown(t.api, id, 'Service not answering, retrying until');
    expect(textOf(retrying)).toContain(`<!date^${Math.floor((start + WINDOW_MS) / 1000)}^`);
    expect(buttonsOf(retrying)).toEqual([]);
    expect(await state(id)).toBe('executing');

    // Three minutes of 503s, each re-send at its time; the lease is renewed all along.
    const refused = await rideOutage(start, 3 * 60_000, 0);
    expect(refused).toBeGreaterThanOrEqual(7);
    const row = await t.runtime.storage.read((s) => s.approvals.byId(id));
    expect(row?.state).toBe('executing');
    expect(Date.parse(row?.leaseUntil ?? '')).toBeGreaterThan(clock.now().getTime());
    expect(row?.requestId).toBe(`${id}-1`);

    await serviceBack();
    let due = clock.now().getTime();
    for (let k = 0; (await state(id)) === 'executing' && k < 20; k += 1) {
      due += 60_000;
      clock.set(new Date(due));
      await until(
        async () => (await state(id)) !== 'executing' || (await payoutsCreated()) > created,
        'a re-send',
      );
    }
    await until(async () => (await state(id)) === 'succeeded', 'succeeded');
    expect((await payoutsCreated()) - created).toBe(1);
    const kinds = await feedKinds(id);
    expect(kinds.filter((k) => k === 'retrying')).toHaveLength(1);
    expect(kinds).not.toContain('unresolved');
    expect(kinds).not.toContain('reconciled');
    expect((await t.runtime.executor.getApproval(id))?.requestId).toBe(`${id}-1`);
    const quote = (await t.runtime.executor.getApproval(id))?.result?.quote as { totalDebitAmount: number };
    expect(balanceBefore - (await usdAvailable())).toBeCloseTo(quote.totalDebitAmount, 2);

    const done = await waitShown(t.api, id, 'Sent: payout');
    expect(textOf(done)).not.toContain('Service not answering');
    const { channel, ts } = whereIs(t.api, id) ?? { channel: '', ts: '' };
    await t.api.waitFor(() => threadOf(t.api, channel, ts).some((l) => l.includes('Service not answering')));
  });
});

describe('an outage longer than the re-send window', () => {
  it('ends unresolved with Sent, Not sent and Send again; Send again after it pays once; the requester may not', async () => {
    const created = await payoutsCreated();
    const id = await unresolvedPayout();
    expect(await payoutsCreated()).toBe(created);

    const message = await waitShown(t.api, id, 'Look up request id');
    expect(textOf(message)).toContain(`${id}-1`);
    expect(buttonsOf(message).map((b) => b.text)).toEqual(['Sent', 'Not sent', 'Send again']);
    await t.api.waitFor(() =>
      directMessages(t.api, PEOPLE.olivia).some((l) => l.includes(id) && l.includes('Outcome unknown')),
    );

    // The requester, and someone without the approver role, are refused before any form opens.
    const opened = t.api.callsOf('views.open').length;
    expect(await click(PEOPLE.olivia, id, 'Send again')).toContain('Not settled: you asked for');
    expect(await click(PEOPLE.viewer, id, 'Sent')).toContain('Not settled: settling');
    expect(t.api.callsOf('views.open')).toHaveLength(opened);
    expect(await state(id)).toBe('unresolved');

    const modal = await openModal(APPROVERS[1] ?? '', id, 'Send again');
    expect(textOf(modal)).toContain(`${id}-1`);
    const done = await t.slack.submit(APPROVERS[1] ?? '', modal, {
      reason: 'the service answers again; nothing under this request id',
    });
    expect(done.status).toBe(200);
    await until(async () => (await state(id)) === 'succeeded', 'sent again');
    expect((await payoutsCreated()) - created).toBe(1);
    expect((await t.runtime.executor.getApproval(id))?.requestId).toBe(`${id}-1`);
    const after = await waitShown(t.api, id, 'Sent: payout');
    expect(buttonsOf(after)).toEqual([]);

    const entries = await t.runtime.audit.list({ approvalId: id, limit: 100 });
    const reconciled = entries.filter((e) => e.decision === 'reconciled');
    expect(reconciled.map((e) => e.actor)).toEqual([`slack:${APPROVERS[1]}`]);
    // The reason the form asked for is kept, and the thread says who sent it again and why.
    expect(reconciled[0]?.error).toContain('the service answers again; nothing under this request id');
    const { channel, ts } = whereIs(t.api, id) ?? { channel: '', ts: '' };
    await t.api.waitFor(() =>
      threadOf(t.api, channel, ts).some((l) => l.includes('the service answers again; nothing under')),
    );
  });

  it('settles only the attempt its buttons and form showed: a newer one is refused, to look up again', async () => {
    const id = await unresolvedPayout();
    // The message is edited after the state changes: wait for its buttons.
    const oldButton = await t.api.waitFor(() =>
      buttonsOf(shown(t.api, id) ?? {}).find((b) => b.text === 'Not sent'),
    );
    const modal = await openModal(APPROVERS[2] ?? '', id, 'Not sent');
    expect(textOf(modal)).toContain(`${id}-1`);
    // Meanwhile it moved on to attempt 2 (sent again, a fresh quote approved again, unresolved once
    // more). No shipped tool re-quotes on Send again, so the row is moved where such a run leaves it.
    sqliteOf(t.runtime)
      .prepare('UPDATE approvals SET attempt = 2, request_id = ? WHERE id = ?')
      .run(`${id}-2`, id);

    const formClick = lastClick;
    const stale = await t.slack.submit(APPROVERS[2] ?? '', modal, { reason: `no payout under ${id}-1` });
    // The form closes before the approval is read again; why it settled nothing follows where it was clicked.
    expect(await stale.text()).toBe('');
    const [refused] = await t.api.answers(formClick);
    expect(textOf(refused?.body ?? {})).toContain(`it is now attempt 2, request \`${id}-2\``);
    const opened = t.api.callsOf('views.open').length;
    const { id: clickId } = await t.slack.click(APPROVERS[2] ?? '', oldButton, {
      channel: whereIs(t.api, id)?.channel ?? '',
    });
    const answer = textOf((await t.api.answers(clickId)).at(-1)?.body ?? {});
    expect(answer).toContain('Not settled');
    expect(answer).toContain('look it up again');
    expect(t.api.callsOf('views.open')).toHaveLength(opened);
    expect(await state(id)).toBe('unresolved');
    const entries = await t.runtime.audit.list({ approvalId: id, limit: 100 });
    expect(entries.filter((e) => e.decision === 'reconciled')).toEqual([]);
  });

  it('Sent and Not sent ask what was found (blank refused), settle it, and the audit log keeps who and why', async () => {
    const sent = await unresolvedPayout();
    const notSent = await unresolvedPayout();
    const created = await payoutsCreated();

    const sentModal = await openModal(APPROVERS[2] ?? '', sent, 'Sent');
    const blank = await t.slack.submit(APPROVERS[2] ?? '', sentModal, { reason: '   ' });
    expect(await blank.json()).toMatchObject({
      response_action: 'errors',
      errors: { reason: expect.stringContaining('Say what you found') },
    });
    expect(await state(sent)).toBe('unresolved');
    await t.slack.submit(APPROVERS[2] ?? '', sentModal, { reason: 'the service shows it COMPLETED' });
    await until(async () => (await state(sent)) === 'succeeded', 'marked sent');
    const sentView = await t.runtime.executor.getApproval(sent);
    expect(sentView?.decidedBy).toBe(`slack:${APPROVERS[2]}`);
    expect(sentView?.decisionReason).toBe('the service shows it COMPLETED');
    const settled = await waitShown(t.api, sent, `reconciled by <@${APPROVERS[2]}>`);
    expect(buttonsOf(settled)).toEqual([]);
    expect(textOf(settled)).not.toContain('Look up request id');

    // Send again says, before anyone clicks it, until when the quote it re-sends holds and what then.
    const quoteHolds = (await t.runtime.executor.getApproval(notSent))?.quoteExpiresAt ?? '';
    expect(quoteHolds).not.toBe('');
    const again = ((shown(t.api, notSent)?.blocks ?? []) as Payload[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements as Payload[])
      .find((e) => e.text?.text === 'Send again');
    expect(again?.confirm?.text?.text).toContain(
      `re-sends its quote, which holds until ${quoteHolds.slice(0, 19).replace('T', ' ')} UTC`,
    );
    expect(again?.confirm?.text?.text).toContain('mark it not sent and ask again');

    const notSentModal = await openModal(APPROVERS[3] ?? '', notSent, 'Not sent');
    await t.slack.submit(APPROVERS[3] ?? '', notSentModal, { reason: 'no payout under this request id' });
    await until(async () => (await state(notSent)) === 'failed', 'marked not sent');
    expect(await payoutsCreated()).toBe(created);

    // Marked not sent: Ask again opens a fresh approval of the same request; nothing is sent.
    const failed = await waitShown(t.api, notSent, `reconciled by <@${APPROVERS[3]}>`);
    expect(buttonsOf(failed).map((b) => b.text)).toEqual(['Ask again']);
    expect(textOf(failed)).toContain(`bankops approvals ask-again ${notSent}`);
    const asked = await click(PEOPLE.olivia, notSent, 'Ask again');
    const fresh = /apr_\w+/.exec(asked)?.[0] ?? '';
    expect(fresh).not.toBe(notSent);
    expect((await t.runtime.executor.getApproval(fresh))?.state).toBe('pending');
    expect((await t.runtime.executor.getApproval(fresh))?.input).toEqual(
      (await t.runtime.executor.getApproval(notSent))?.input,
    );
    expect(await payoutsCreated()).toBe(created);

    for (const [id, who, why] of [
      [sent, APPROVERS[2], 'the service shows it COMPLETED'],
      [notSent, APPROVERS[3], 'no payout under this request id'],
    ] as const) {
      const entries = await t.runtime.audit.list({ approvalId: id, limit: 100 });
      const reconciled = entries.filter(
        (e) => e.decision === 'reconciled' && !e.error?.includes('asked again'),
      );
      expect(reconciled.map((e) => e.actor)).toEqual([`slack:${who}`]);
      expect(reconciled[0]?.error).toContain(why);
    }
    // Who asked again, and as which approval, is on the old one's record.
    const notes = (await t.runtime.audit.list({ approvalId: notSent, limit: 100 })).filter((e) =>
      e.error?.includes('asked again'),
    );
    expect(notes.map((e) => e.actor)).toEqual([`slack:${PEOPLE.olivia}`]);
    expect(notes[0]?.error).toContain(fresh);
  });
});

describe('a short CLI command', () => {
  it('still goes unresolved after its bounded re-sends, and the message offers the buttons', async () => {
    const id = await ask(PEOPLE.olivia, payout());
    await serviceDown();
    const refused = await refusedSends();
    const run = await runCli(['approvals', 'approve', id], {
      ...cliEnvFor(t, 'bob'),
      BANKOPS_RESEND_DELAYS_MS: '10,10',
    });
    expect(run.stdout + run.stderr).toContain('unresolved');
    expect(await refusedSends()).toBe(refused + 3);
    expect(await state(id)).toBe('unresolved');
    const message = await waitShown(t.api, id, 'Look up request id');
    expect(buttonsOf(message).map((b) => b.text)).toEqual(['Sent', 'Not sent', 'Send again']);
    await serviceBack();
  });
});

describe('a payout that fails after approval', () => {
  it('is announced in the approval’s thread and to the requester', async () => {
    const id = await ask(
      PEOPLE.olivia,
      'payout 500 USD to ben_us_fail_0001 from acc_usd_0001 destinationRail=FEDWIRE purposeCode=GOODS_PURCHASED',
    );
    expect(await click(APPROVERS[4] ?? '', id, 'Approve')).toContain('Executed: create_payout');
    // The sandbox fails the payout to a closed account after two minutes of its own time; the
    // approvals' clock is moved until the follower has asked and heard FAILED.
    const moved = await raw(t.sandbox, 'POST', '/_sandbox/clock', {
      headers: { 'content-type': 'application/json' },
      body: { advanceSeconds: 121 },
    });
    expect(moved.status).toBe(200);
    // Each look moves the clock on a second, so the follower's next pass falls due whenever it ends.
    await until(async () => {
      if ((await t.runtime.executor.getApproval(id))?.settlement?.outcome !== 'settling') return true;
      clock.advance(1_000);
      return false;
    }, 'the follower to hear FAILED');
    expect((await t.runtime.executor.getApproval(id))?.settlement).toMatchObject({
      status: 'FAILED',
      outcome: 'failed',
    });
    const { channel, ts } = whereIs(t.api, id) ?? { channel: '', ts: '' };
    await t.api.waitFor(() =>
      threadOf(t.api, channel, ts).some((l) => l.includes(':x:') && l.includes('FAILED after approval')),
    );
    await t.api.waitFor(() =>
      directMessages(t.api, PEOPLE.olivia).some((l) => l.includes(id) && l.includes('FAILED after approval')),
    );
    expect(textOf(await waitShown(t.api, id, 'FAILED after approval'))).toContain(':x:');
  });
});
