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
  clickButton,
  directMessages,
  PEOPLE,
  threadOf,
  waitShown,
  whereIs,
} from '../helpers/slack-approvals.js';
import { buttonsOf, type Payload, textOf } from '../helpers/slack-requests.js';

/**
 * What time does to an approval in Slack: a quote that moved goes back to the approvers with the new
 * figures, and a deadline that passed removes the buttons. The approvals' clock is moved, not waited for.
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

async function ask(user: string, text: string): Promise<string> {
  const { id } = await t.slack.command(user, text);
  const answer = textOf((await t.api.answers(id)).at(-1)?.body ?? {});
  const approval = /apr_\w+/.exec(answer)?.[0];
  if (approval === undefined) throw new Error(answer);
  return approval;
}

const click = (user: string, approvalId: string, label: string, message?: Payload): Promise<string> =>
  clickButton(t, user, approvalId, label, message);

describe('a re-quote', () => {
  it('shows the new quote and asks again; a click on the old quote counts for nothing', async () => {
    const id = await ask(
      PEOPLE.olivia,
      'payout 1000 USD to ben_de_swift_0001 from acc_usd_0001 destinationRail=SWIFT purposeCode=GOODS_PURCHASED destinationAssetCode=EUR',
    );
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    const before = textOf(post.args);
    expect(before).toMatch(/Pay [\d,.]+ EUR/);

    // The euro rises 30 %: the same 1,000 USD would buy far fewer euros than the approvers saw.
    const moved = await raw(t.sandbox, 'POST', '/_sandbox/banking/rates', {
      headers: { 'content-type': 'application/json' },
      body: { rates: { EUR: 1.085 * 1.3 } },
    });
    expect(moved.status).toBe(200);
    expect(await click(APPROVERS[0] ?? '', id, 'Approve')).toMatch(
      /Not executed: the fresh quote delivers [\d,.]+ EUR, less than the approved minimum .* went back to the approvers \(attempt 2\)/,
    );
    expect(t.sandbox.stats()['payouts.create'] ?? 0).toBe(0);

    const again = await waitShown(t.api, id, 'Sent back to the approvers (attempt 2)');
    const after = textOf(again);
    expect(after).toContain(':leftwards_arrow_with_hook:');
    expect(after).toContain('0 of 1');
    expect(after).toContain('attempt 2');
    const payee = (text: string) => /Pay ([\d,.]+) EUR/.exec(text)?.[1];
    expect(payee(after)).not.toBe(payee(before));
    expect(buttonsOf(again).map((b) => b.text)).toEqual(['Approve', 'Reject']);
    const { channel, ts } = whereIs(t.api, id) ?? { channel: '', ts: '' };
    await t.api.waitFor(() =>
      threadOf(t.api, channel, ts).some((l) => l.includes('Sent back to the approvers')),
    );
    await t.api.waitFor(() => directMessages(t.api, PEOPLE.olivia).some((l) => l.includes('Sent back')));

    // Someone who still has the first message in front of them clicks its Approve.
    expect(await click(APPROVERS[1] ?? '', id, 'Approve', post.args)).toContain(
      'has a new quote since you saw it',
    );
    expect((await t.runtime.executor.getApproval(id))?.approvals).toEqual([]);

    expect(await click(APPROVERS[1] ?? '', id, 'Approve')).toContain('Executed: create_payout');
    await waitShown(t.api, id, 'Sent: payout');
    await raw(t.sandbox, 'POST', '/_sandbox/reset');
  });
});

describe('expiry', () => {
  it('removes the buttons at the deadline, says it expired, and tells the requester', async () => {
    const id = await ask(
      PEOPLE.olivia,
      'payout 300 USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED',
    );
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    expect(buttonsOf(post.args)).toHaveLength(2);
    const deadline = Date.parse((await t.runtime.executor.getApproval(id))?.expiresAt ?? '');

    // Just before the deadline nothing happens; the deadline passing expires it with nobody asking.
    clock.set(new Date(deadline - 1));
    expect(
      (await t.runtime.approvals.feed.after(0, 1000)).some(
        (e) => e.approvalId === id && e.kind === 'expired',
      ),
    ).toBe(false);
    clock.set(new Date(deadline + 1));
    const expired = await waitShown(t.api, id, 'Expired at', 5_000);
    expect(textOf(expired)).toContain(':hourglass:');
    expect(textOf(expired)).toContain('without enough approvals; nothing happened');
    expect(buttonsOf(expired)).toEqual([]);
    await t.api.waitFor(() =>
      directMessages(t.api, PEOPLE.olivia).some((l) => l.includes(id) && l.includes('Expired at')),
    );

    // The old message's button, clicked late: refused, nothing runs.
    expect(await click(APPROVERS[2] ?? '', id, 'Approve', post.args)).toContain('expired');
    expect((await t.runtime.executor.getApproval(id))?.state).toBe('expired');
  });
});
