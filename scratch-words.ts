import { rememberSandboxPayees } from './src/app/sandbox-payees.js';
import { startSlackTest } from './test/helpers/slack-app.js';
import {
  APPROVALS_CHANNEL,
  APPROVERS,
  APPROVERS_GROUP,
  approvalPost,
  approvalsPolicyYaml,
  directMessages,
  PEOPLE,
  shown,
  threadOf,
  waitShown,
  whereIs,
} from './test/helpers/slack-approvals.js';
import { buttonsOf, textOf } from './test/helpers/slack-requests.js';

const t = await startSlackTest({
  policyYaml: approvalsPolicyYaml(),
  config: { approvalsChannel: APPROVALS_CHANNEL },
});
t.api.setGroups({ [APPROVERS_GROUP]: APPROVERS });
rememberSandboxPayees(t.runtime.payees);
try {
  const { id: cmd } = await t.slack.command(
    PEOPLE.olivia,
    'payout 52000 USD to ben_de_swift_0001 from acc_usd_0001 destinationRail=SWIFT purposeCode=GOODS_PURCHASED destinationAssetCode=EUR',
  );
  const answer = textOf((await t.api.answers(cmd)).at(-1)?.body ?? {});
  console.log('--- requester answer\n' + answer);
  const id = /apr_\w+/.exec(answer)?.[0] ?? '';
  await t.api.waitFor(() => approvalPost(t.api, id));
  const b = buttonsOf(shown(t.api, id) ?? {}).find((x) => x.text === 'Approve')!;
  await t.slack.click(APPROVERS[0]!, b, { channel: whereIs(t.api, id)!.channel });
  await waitShown(t.api, id, '1 of 2');

  console.log('--- text\n' + textOf(shown(t.api, id)!));
  const r = await t.runtime.executor.execute({
    tool: 'update_card_status_b',
    input: {
      cardholderId: 'chb_demo_alice',
      walletId: 'wal_demo_alice_usd',
      cardId: 'card_demo_alice_virtual',
      status: 'STOLEN',
    },
    actor: { id: 'cli:olivia', frontEnd: 'cli', cliUser: 'olivia' },
  });
  console.log(JSON.stringify(r).slice(0, 300));
  if (r.status === 'pending_approval') {
    const id2 = r.approval.id;
    await t.api.waitFor(() => approvalPost(t.api, id2));
    const b2 = buttonsOf(shown(t.api, id2) ?? {}).find((x) => x.text === 'Approve')!;
    await t.slack.click(APPROVERS[1]!, b2, { channel: whereIs(t.api, id2)!.channel });
    await waitShown(t.api, id2, 'Done');
    console.log('--- card block done\n' + textOf(shown(t.api, id2)!));
    const w = whereIs(t.api, id2)!;
    await new Promise((r) => setTimeout(r, 500));
    console.log('--- thread\n' + threadOf(t.api, w.channel, w.ts).join('\n'));
  }
  await new Promise((r) => setTimeout(r, 500));
  console.log('--- DMs\n' + directMessages(t.api, PEOPLE.olivia).join('\n'));
  console.log('problems', t.api.problems);
} finally {
  await t.close();
}
