import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, slackActor } from '../../../src/core/actors.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

// The shipped policy; large payouts (>= 50,000 USD) need two distinct people.
const SHIPPED = readFileSync(fileURLToPath(new URL('../../../policy/default.yaml', import.meta.url)), 'utf8');
const withBob = (entries: string) =>
  SHIPPED.replace('  - match: { cli: "*" }\n', `${entries}  - match: { cli: "*" }\n`);
const BOB_IS_A_PERSON = withBob(`  - match: { cli: bob }
    roles: [viewer, approver]
    person: bob
  - match: { slackUser: UBOB }
    roles: [viewer, approver]
    person: bob
`);
const NO_PEOPLE = withBob(`  - match: { slackUser: UBOB }
    roles: [viewer, approver]
`);

const big = { ...PAYOUT, beneficiaryId: 'ben_us_ach_0001', destinationRail: 'ACH', amount: 50_000 };

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore({ policyYaml: BOB_IS_A_PERSON });
});
afterAll(() => core.close());

function putInForce(yaml: string): void {
  writeFileSync(core.policy.path, yaml);
  expect(core.policy.reload()).toEqual({ ok: true });
}

describe('each person counts once, whatever the policy did between two votes', () => {
  it('never counts the same identity twice after its person mapping was removed', async () => {
    putInForce(BOB_IS_A_PERSON);
    const approval = pending(await core.call('create_payout', big, cliActor('carol')));
    expect(approval.requiredApprovers).toBe(2);
    expect(await core.executor.approve(approval.id, cliActor('bob'))).toMatchObject({ status: 'ok' });
    putInForce(NO_PEOPLE);
    const again = await core.executor.approve(approval.id, cliActor('bob'));
    expect(again.status === 'ok' ? again.approval.approvals : again).toMatchObject({ status: 'refused' });
  });

  it('never counts one person twice when a mapping tying their identities is added between votes', async () => {
    putInForce(NO_PEOPLE);
    const approval = pending(await core.call('create_payout', { ...big, amount: 60_000 }, cliActor('carol')));
    expect(await core.executor.approve(approval.id, cliActor('bob'))).toMatchObject({ status: 'ok' });
    // Treasury learns that cli:bob and slack:UBOB are one man and says so in the policy.
    putInForce(BOB_IS_A_PERSON);
    const second = await core.executor.approve(approval.id, slackActor('UBOB'));
    expect(second.status === 'ok' ? second.approval.approvals : second).toMatchObject({ status: 'refused' });
  });
});

// Membership comes from the policy in force at each count; the rule and quorum from the approval.
const BOB_AND_DAVE = withBob(`  - match: { slackUser: UBOB }
    roles: [viewer, approver]
  - match: { slackUser: UDAVE }
    roles: [viewer, approver]
  - match: { slackUser: UERIN }
    roles: [viewer, approver]
`);
const BOB_REMOVED = withBob(`  - match: { slackUser: UBOB }
    roles: [viewer]
  - match: { slackUser: UDAVE }
    roles: [viewer, approver]
  - match: { slackUser: UERIN }
    roles: [viewer, approver]
`);

describe('a vote counts while its voter holds the role', () => {
  it('stops counting a pending vote once the voter is removed from the role', async () => {
    putInForce(BOB_AND_DAVE);
    const approval = pending(await core.call('create_payout', { ...big, amount: 70_000 }, cliActor('carol')));
    expect(approval.requiredApprovers).toBe(2);
    expect(await core.executor.approve(approval.id, slackActor('UBOB'))).toMatchObject({ status: 'ok' });
    putInForce(BOB_REMOVED);
    // Dave's vote is the second recorded, but Bob no longer holds `approver`: one of two counts.
    const dave = await core.executor.approve(approval.id, slackActor('UDAVE'));
    expect(dave).toMatchObject({ status: 'ok', approval: { state: 'pending' } });
    // Erin's vote completes the quorum of two people who hold the role now.
    const erin = await core.executor.approve(approval.id, slackActor('UERIN'));
    expect(erin.status).toBe('ok');
    expect((await core.executor.getApproval(approval.id))?.state).not.toBe('pending');
  });
});
