import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../helpers/clock.js';
import { raw } from '../helpers/sandbox.js';
import { type SlackTest, startSlackTest } from '../helpers/slack-app.js';
import {
  APPROVALS_CHANNEL,
  APPROVERS,
  APPROVERS_GROUP,
  approvalPost,
  approvalsPolicyYaml,
  directMessages,
  PEOPLE,
  shown,
  TREASURY_CHANNEL,
  threadOf,
  waitShown,
  whereIs,
} from '../helpers/slack-approvals.js';
import { buttonsOf, type Payload, textOf } from '../helpers/slack-requests.js';

/**
 * Approvals in Slack end to end: requests typed in Slack, messages posted from the core's change
 * feed, clicks and the reject modal as signed requests, the payout at the sandbox.
 */

let t: SlackTest;
const clock = manualClock();

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

const payouts = () => t.sandbox.stats()['payouts.create'] ?? 0;

/** Types `/bank <text>`; the last answer's visible text and the approval id it names. */
async function ask(user: string, text: string): Promise<{ text: string; id: string }> {
  const { id, response } = await t.slack.command(user, text);
  expect(response.status).toBe(200);
  const answer = textOf((await t.api.answers(id)).at(-1)?.body ?? {});
  return { text: answer, id: /apr_\w+/.exec(answer)?.[0] ?? '' };
}

/** Clicks a button of the approval message as `user`; resolves with the ephemeral answer's text. */
async function click(user: string, approvalId: string, label: string, message?: Payload): Promise<string> {
  const where = whereIs(t.api, approvalId);
  const target = buttonsOf(message ?? shown(t.api, approvalId) ?? {}).find((b) => b.text === label);
  if (where === undefined || target === undefined) throw new Error(`no ${label} button on ${approvalId}`);
  const { id, response } = await t.slack.click(user, target, { channel: where.channel });
  expect(response.status).toBe(200);
  return textOf((await t.api.answers(id)).at(-1)?.body ?? {});
}

const payout = (amount: number) =>
  `payout ${amount} USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED`;

describe('an approval from request to settlement', () => {
  it('request in Slack → posted to its rule’s channel → two approvers → payout → updated in place → requester told → settled', async () => {
    const asked = await ask(PEOPLE.olivia, payout(60000));
    expect(asked.text).toContain('Waiting for approval');
    expect(asked.text).toContain(`<#${TREASURY_CHANNEL}>`);
    const id = asked.id;

    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    expect(post.args.channel).toBe(TREASURY_CHANNEL);
    const first = textOf(post.args);
    expect(first).toContain('60,000.00 USD');
    expect(first).toContain(`<@${PEOPLE.olivia}> in <#C0OPS>`);
    expect(first).toContain("rule 'large-payouts'");
    expect(first).toContain('0 of 2');
    expect(first).toMatch(/\*Deadline\*\n<!date\^\d+\^/);
    const buttons = (post.args.blocks as Payload[]).find((b) => b.type === 'actions')?.elements as Payload[];
    expect(buttons.map((b) => [b.text.text, b.style])).toEqual([
      ['Approve', 'primary'],
      ['Reject', 'danger'],
    ]);
    expect(buttons[0]?.confirm).toBeUndefined();

    expect(await click(APPROVERS[0] ?? '', id, 'Approve')).toContain('Vote recorded');
    const voted = await waitShown(t.api, id, '1 of 2');
    expect(textOf(voted)).toContain(`<@${APPROVERS[0]}>, <!date^`);
    const { channel, ts } = whereIs(t.api, id) ?? { channel: '', ts: '' };
    await t.api.waitFor(() =>
      threadOf(t.api, channel, ts).some((l) => l.includes(`Approved by <@${APPROVERS[0]}>`)),
    );
    await t.api.waitFor(() => directMessages(t.api, PEOPLE.olivia).some((l) => l.includes(`\`${id}\``)));
    expect(payouts()).toBe(0);

    expect(await click(APPROVERS[1] ?? '', id, 'Approve')).toMatch(/Executed: create_payout ran .*payoutId/);
    expect(payouts()).toBe(1);
    const done = await waitShown(t.api, id, 'Sent: payout');
    expect(textOf(done)).toContain(':white_check_mark:');
    expect(buttonsOf(done)).toEqual([]);
    await t.api.waitFor(() =>
      threadOf(t.api, channel, ts).some((l) => l.includes('Done: create_payout ran')),
    );
    await t.api.waitFor(() =>
      directMessages(t.api, PEOPLE.olivia).some((l) => l.includes('Done: create_payout')),
    );

    // The service reports a final status 120 s after creation: the sandbox's clock jumps there.
    expect(
      (
        await raw(t.sandbox, 'POST', '/_sandbox/clock', {
          headers: { 'content-type': 'application/json' },
          body: { advanceSeconds: 130 },
        })
      ).status,
    ).toBe(200);
    // bankops looks again 2 s after sending, by itself.
    clock.advance(2_100);
    await waitShown(t.api, id, /Completed: payout \S+ is COMPLETED/, 10_000);
    await t.api.waitFor(() => threadOf(t.api, channel, ts).some((l) => l.includes('COMPLETED')));
  });
});

describe('refused clicks change nothing', () => {
  it('the requester (as any identity of the same person), no approver role, a stranger, a second vote: each told why', async () => {
    const { id } = await ask(PEOPLE.olivia, payout(50000));
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    const updates = () => t.api.callsOf('chat.update').filter((c) => c.args.ts === post.answer?.ts).length;

    expect(await click(PEOPLE.olivia, id, 'Approve')).toContain(
      ':no_entry: Refused: <@U0OLIVIA> requested this call and cannot approve it.',
    );
    expect(await click(PEOPLE.viewer, id, 'Approve')).toContain('does not hold the role approver');
    expect(await click('U0STRANGER', id, 'Approve')).toContain('no access to bankops yet');
    expect(await click(PEOPLE.viewer, id, 'Reject')).toContain('Not rejected: deciding');
    expect(await click(PEOPLE.olivia, id, 'Reject')).toContain('Not rejected: you asked for');
    expect(t.api.callsOf('views.open')).toEqual([]);

    expect(await click(APPROVERS[2] ?? '', id, 'Approve')).toContain('Vote recorded');
    expect(await click(APPROVERS[2] ?? '', id, 'Approve')).toContain('already approved');
    const view = await t.runtime.executor.getApproval(id);
    expect(view?.state).toBe('pending');
    expect(view?.approvals.map((v) => v.approver)).toEqual([`slack:${APPROVERS[2]}`]);
    await waitShown(t.api, id, '1 of 2');
    expect(updates()).toBe(1);
  });

  it('a request made with the CLI cannot be approved by the same person’s Slack user', async () => {
    const opened = await t.runtime.executor.execute({
      tool: 'create_payout',
      input: {
        beneficiaryId: 'ben_us_ach_0001',
        sourceAccountId: 'acc_usd_0001',
        sourceAssetCode: 'USD',
        destinationRail: 'ACH',
        amount: 1234,
        side: 'SOURCE',
        purposeCode: 'GOODS_PURCHASED',
      },
      actor: { id: 'cli:olivia', frontEnd: 'cli', cliUser: 'olivia' },
    });
    expect(opened.status).toBe('pending_approval');
    const id = opened.status === 'pending_approval' ? opened.approval.id : '';
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    expect(post.args.channel).toBe(APPROVALS_CHANNEL);
    expect(textOf(post.args)).toContain(`<@${PEOPLE.olivia}> (as olivia, CLI)`);
    expect(await click(PEOPLE.olivia, id, 'Approve')).toContain(
      '<@U0OLIVIA> is olivia, who requested this call (as olivia (CLI))',
    );
    expect((await t.runtime.executor.getApproval(id))?.approvals).toEqual([]);
  });
});

describe('reject', () => {
  it('asks for a reason in a modal; blank is refused inline; the reason reaches the message, the thread and the requester', async () => {
    const { id } = await ask(PEOPLE.olivia, payout(1500));
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    expect(post.args.channel).toBe(APPROVALS_CHANNEL);
    const before = t.api.callsOf('views.open').length;
    const answer = click(APPROVERS[3] ?? '', id, 'Reject');
    const opened = await t.api.waitFor(() => t.api.callsOf('views.open')[before]);
    const modal = opened.args.view as Payload;
    expect(textOf(modal)).toContain('1,500.00 USD');

    const blank = await t.slack.submit(APPROVERS[3] ?? '', modal, { reason: '  \n ' });
    expect(await blank.json()).toMatchObject({
      response_action: 'errors',
      errors: { reason: expect.stringContaining('Say why') },
    });
    expect((await t.runtime.executor.getApproval(id))?.state).toBe('pending');

    const done = await t.slack.submit(APPROVERS[3] ?? '', modal, {
      reason: 'wrong payee: the invoice <names> another account',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toBe('');
    const view = await t.runtime.executor.getApproval(id);
    expect(view?.state).toBe('rejected');
    expect(view?.decisionReason).toBe('wrong payee: the invoice <names> another account');

    const shownNow = await waitShown(
      t.api,
      id,
      `Rejected by <@${APPROVERS[3]}>: wrong payee: the invoice <names> another account`,
    );
    expect(textOf(shownNow)).toContain(':x:');
    expect(buttonsOf(shownNow)).toEqual([]);
    expect(JSON.stringify(shownNow.blocks)).toContain('&lt;names&gt;');
    const { channel, ts } = whereIs(t.api, id) ?? { channel: '', ts: '' };
    await t.api.waitFor(() => threadOf(t.api, channel, ts).some((l) => l.includes('wrong payee')));
    await t.api.waitFor(() =>
      directMessages(t.api, PEOPLE.olivia).some((l) => l.includes(id) && l.includes('wrong payee')),
    );
    expect(await answer).toContain(`Rejected ${id}: wrong payee`);

    // A finished approval: a late click on the old message is refused and changes nothing.
    expect(await click(APPROVERS[4] ?? '', id, 'Approve', post.args)).toContain(
      `${id} was already rejected; it takes no more decisions`,
    );
    expect((await t.runtime.executor.getApproval(id))?.state).toBe('rejected');
  });
});

describe('a permanent card block', () => {
  it('confirms in a dialog before the vote counts, then blocks the card and says so', async () => {
    const { id, text } = await ask(
      PEOPLE.olivia,
      'update_card_status_b cardholderId=chb_demo_alice walletId=wal_demo_alice_usd cardId=card_demo_alice_locked status=BLOCKED',
    );
    expect(text).toContain('Waiting for approval');
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    expect(textOf(post.args)).toContain('••••5932');
    expect(textOf(post.args)).toContain('BLOCKED is permanent');
    const elements = (post.args.blocks as Payload[]).find((b) => b.type === 'actions')?.elements as Payload[];
    const approve = elements.find((e) => e.text.text === 'Approve');
    expect(approve?.confirm).toMatchObject({
      title: { text: 'Cannot be undone' },
      confirm: { text: 'Approve' },
      deny: { text: 'Back' },
      style: 'danger',
    });
    expect(approve?.confirm.text.text).toContain('••••5932');
    expect(elements.find((e) => e.text.text === 'Reject')?.confirm).toBeUndefined();

    expect(await click(APPROVERS[5] ?? '', id, 'Approve')).toContain('Executed: update_card_status_b ran');
    await waitShown(t.api, id, 'Done: update_card_status_b ran');
  });
});

describe('ten approvers at once', () => {
  it('ten concurrent Approve clicks on a payout that needs two: two votes, one payout, eight told why not', async () => {
    const { id } = await ask(PEOPLE.olivia, payout(70000));
    await t.api.waitFor(() => approvalPost(t.api, id));
    const before = payouts();
    const answers = await Promise.all(APPROVERS.map((user) => click(user, id, 'Approve')));
    expect(payouts()).toBe(before + 1);
    const view = await t.runtime.executor.getApproval(id);
    expect(view?.state).toBe('succeeded');
    expect(view?.approvals).toHaveLength(2);
    expect(answers.filter((a) => a.includes('Vote recorded'))).toHaveLength(1);
    expect(answers.filter((a) => a.includes('Executed: create_payout'))).toHaveLength(1);
    expect(answers.filter((a) => a.includes('Refused:'))).toHaveLength(8);
    const final = await waitShown(t.api, id, 'Sent: payout');
    expect(textOf(final)).toContain('2 of 2');
    expect(buttonsOf(final)).toEqual([]);
  });
});

describe('the App Home', () => {
  /** Opens the home tab as `user`; resolves with what was published. */
  async function openHome(user: string): Promise<Payload> {
    const before = t.api.callsOf('views.publish').length;
    const response = await t.slack.event(
      { type: 'app_home_opened', user, channel: `D${user}`, tab: 'home' },
      { eventId: t.slack.nextId('Ev') },
    );
    expect(response.status).toBe(200);
    const call = await t.api.waitFor(() =>
      t.api
        .callsOf('views.publish')
        .slice(before)
        .find((c) => c.args.user_id === user),
    );
    return call.args.view as Payload;
  }

  it('lists the approvals waiting for this person with the buttons, and their own with Cancel; both work from there', async () => {
    const { id } = await ask(PEOPLE.olivia, payout(2500));
    await t.api.waitFor(() => approvalPost(t.api, id));
    const approver = await openHome(APPROVERS[6] ?? '');
    expect(textOf(approver)).toMatch(/Waiting for you\* \([1-9]/);
    expect(textOf(approver)).toContain(id);
    const mine = await openHome(PEOPLE.olivia);
    expect(textOf(mine)).toMatch(/Yours, waiting for others\* \([1-9]/);
    const cancel = buttonsOf(mine).find((b) => b.text === 'Cancel request' && b.value.includes(id));
    expect(cancel).toBeDefined();
    expect(
      buttonsOf(mine)
        .filter((b) => b.value?.includes(id))
        .map((b) => b.text),
    ).toEqual(['Cancel request']);
    expect(textOf(await openHome(PEOPLE.viewer))).toContain('Waiting for you* (0)');

    // Approve from the home tab: the answer is at the top of the home tab, published again.
    const approve = buttonsOf(approver).find((b) => b.text === 'Approve' && b.value.includes(id));
    const published = t.api.callsOf('views.publish').length;
    await t.slack.click(APPROVERS[6] ?? '', approve ?? { action_id: '', value: '' }, { home: true });
    const after = await t.api.waitFor(() => t.api.callsOf('views.publish')[published]);
    expect(textOf(after.args.view)).toContain(`Executed: create_payout ran for ${id}`);
    expect(buttonsOf(after.args.view).filter((b) => b.value?.includes(id))).toEqual([]);
    await waitShown(t.api, id, 'Sent: payout');

    // Cancel from the home tab.
    const { id: second } = await ask(PEOPLE.olivia, payout(2600));
    await t.api.waitFor(() => approvalPost(t.api, second));
    const home = await openHome(PEOPLE.olivia);
    const withdraw = buttonsOf(home).find((b) => b.text === 'Cancel request' && b.value.includes(second));
    const count = t.api.callsOf('views.publish').length;
    await t.slack.click(PEOPLE.olivia, withdraw ?? { action_id: '', value: '' }, { home: true });
    const answered = await t.api.waitFor(() => t.api.callsOf('views.publish')[count]);
    expect(textOf(answered.args.view)).toContain(`Cancelled ${second}`);
    expect((await t.runtime.executor.getApproval(second))?.state).toBe('cancelled');
    await waitShown(t.api, second, `Cancelled by <@${PEOPLE.olivia}>`);
  });
});
