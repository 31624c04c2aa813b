// Slack approvals: how long from an approver's click to the approval message edited in place. The
// real Bolt app on the shared listener in production mode (acknowledged at once, the vote after),
// signed block_actions as Slack sends them, the core's change feed, the outbox, the Web API stand-in
// of the tests (the time is when the stand-in received chat.update) and the sandbox.
//   a vote that does not complete the quorum: click → feed → chat.update ("1 of 2")
//   the vote that completes it: click → payout at the sandbox → feed → chat.update ("Sent: payout")
// Run: npx tsx bench/slack-approvals.bench.ts [approvals]
import { parse, stringify } from 'yaml';
import { startSlackTest } from '../test/helpers/slack-app.js';
import {
  APPROVALS_CHANNEL,
  APPROVERS,
  APPROVERS_GROUP,
  approvalPost,
  approvalsPolicyYaml,
  PEOPLE,
  whereIs,
} from '../test/helpers/slack-approvals.js';
import { buttonsOf, textOf } from '../test/helpers/slack-requests.js';

const APPROVALS = Number(process.argv[2] ?? 100);

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

/** Every payout needs two approvers here, so a first vote changes only the message. */
function twoApproverPolicy(): string {
  const policy = parse(approvalsPolicyYaml()) as {
    rules: { name?: string; approval?: { approvers: number } }[];
  };
  for (const rule of policy.rules) if (rule.name === 'payouts' && rule.approval) rule.approval.approvers = 2;
  return stringify(policy);
}

const t = await startSlackTest({
  processBeforeResponse: false,
  policyYaml: twoApproverPolicy(),
  config: { approvalsChannel: APPROVALS_CHANNEL },
});
t.api.setGroups({ [APPROVERS_GROUP]: APPROVERS });
try {
  const ids: string[] = [];
  for (let i = 0; i < APPROVALS; i += 1) {
    const result = await t.runtime.executor.execute({
      tool: 'create_payout',
      input: {
        beneficiaryId: 'ben_us_ach_0001',
        sourceAccountId: 'acc_usd_0001',
        sourceAssetCode: 'USD',
        destinationRail: 'ACH',
        amount: 100 + i,
        side: 'SOURCE',
        purposeCode: 'GOODS_PURCHASED',
      },
      actor: {
        id: `slack:${PEOPLE.olivia}`,
        frontEnd: 'slack',
        slackUserId: PEOPLE.olivia,
        slackGroupIds: [],
      },
    });
    if (result.status !== 'pending_approval') throw new Error(JSON.stringify(result));
    ids.push(result.approval.id);
  }
  await t.api.waitFor(() => ids.every((id) => approvalPost(t.api, id) !== undefined), 60_000);

  /** Clicks Approve as `user`; ms until the stand-in received the chat.update that shows `expected`. */
  const voteToUpdate = async (id: string, user: string, expected: string): Promise<number> => {
    const where = whereIs(t.api, id);
    const updates = t.api.callsOf('chat.update');
    const button = buttonsOf(
      updates.filter((c) => c.args.ts === where?.ts).at(-1)?.args ?? approvalPost(t.api, id)?.args ?? {},
    ).find((b) => b.text === 'Approve');
    if (where === undefined || button === undefined) throw new Error(`no Approve on ${id}`);
    const clicked = Date.now();
    const { response } = await t.slack.click(user, button, { channel: where.channel });
    await response.arrayBuffer();
    const update = await t.api.waitFor(
      () =>
        t.api
          .callsOf('chat.update')
          .find((c) => c.args.ts === where.ts && c.at >= clicked && textOf(c.args).includes(expected)),
      30_000,
    );
    return update.at - clicked;
  };

  const report = (what: string, samples: number[]): void => {
    samples.sort((a, b) => a - b);
    console.log(
      `  ${what}: p50 ${quantile(samples, 0.5).toFixed(0)} ms, p99 ${quantile(samples, 0.99).toFixed(0)} ms, max ${samples.at(-1)?.toFixed(0)} ms (${samples.length} votes)`,
    );
  };
  const first: number[] = [];
  const quorum: number[] = [];
  for (const id of ids) first.push(await voteToUpdate(id, APPROVERS[0] ?? '', '1 of 2'));
  for (const id of ids) quorum.push(await voteToUpdate(id, APPROVERS[1] ?? '', 'Sent: payout'));
  console.log('\nSlack approvals: vote → approval message updated in place (chat.update received)');
  report('a vote toward the quorum', first);
  report('the vote that completes it (the payout at the sandbox included)', quorum);
  console.log(`  Slack checks: ${t.api.problems.length === 0 ? 'clean' : t.api.problems.join('; ')}`);
} finally {
  await t.close();
}
