import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, mcpActor, slackActor } from '../../../src/core/actors.js';
import { parsePolicyText } from '../../../src/core/policy/index.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

// The shipped policy, with Alice's Slack account, her assistant's MCP key and her CLI name tied to
// one person, and Bob's two identities to another; a rule whose approvals are decided in a channel.
const SHIPPED = readFileSync(fileURLToPath(new URL('../../../policy/default.yaml', import.meta.url)), 'utf8');
const POLICY = SHIPPED.replace(
  '  - match: { cli: "*" }\n',
  `  - match: { slackUser: UALICE }
    roles: [viewer, operator, approver]
    person: alice
  - match: { mcpKey: alice-assistant }
    roles: [viewer, operator]
    person: alice
  - match: { cli: alice }
    roles: [viewer, operator, approver]
    person: alice
  - match: { slackUser: UBOB }
    roles: [viewer, approver]
    person: bob
  - match: { cli: bob }
    roles: [viewer, approver]
    person: bob
  - match: { cli: "*" }
`,
)
  .replace('mcpKeys: []', `mcpKeys:\n  - { name: alice-assistant, sha256: ${'a'.repeat(64)} }`)
  .replace(
    '    approval: { approvers: 2, role: approver }',
    '    approval: { approvers: 2, role: approver, slackChannel: C0TREASURY }',
  );

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore({ policyYaml: POLICY });
});
afterAll(() => core.close());

const big = { ...PAYOUT, beneficiaryId: 'ben_us_ach_0001', destinationRail: 'ACH', amount: 50_000 };

describe('people, not identities', () => {
  it('refuses a person approving their own request through another identity, in Slack and at the CLI', async () => {
    const viaAssistant = pending(await core.call('create_payout', PAYOUT, mcpActor('alice-assistant')));
    expect(viaAssistant.requesterPerson).toBe('alice');
    for (const self of [slackActor('UALICE'), cliActor('alice')]) {
      const vote = await core.executor.approve(viaAssistant.id, self);
      expect(vote).toMatchObject({
        status: 'refused',
        reason: expect.stringContaining('alice, who requested this call'),
      });
    }
    // She may withdraw it from any of her identities; an approver of another person may not.
    expect(await core.executor.reject(viaAssistant.id, slackActor('UALICE'), 'no')).toMatchObject({
      status: 'refused',
    });
    expect(await core.executor.cancel(viaAssistant.id, cliActor('alice'))).toMatchObject({
      status: 'ok',
      approval: { state: 'cancelled' },
    });
  });

  it("counts each person's vote once, whichever identity they vote with", async () => {
    const approval = pending(await core.call('create_payout', big, cliActor('carol')));
    expect(approval.requiredApprovers).toBe(2);
    expect(await core.executor.approve(approval.id, slackActor('UBOB'))).toMatchObject({ status: 'ok' });
    const twice = await core.executor.approve(approval.id, cliActor('bob'));
    expect(twice).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('bob already approved'),
    });
    expect(twice.status === 'refused' && twice.reason).toContain('as slack:UBOB');
    const done = await core.executor.approve(approval.id, cliActor('dave'));
    expect(done).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    if (done.status !== 'ok') return;
    expect(done.approval.approvals.map((a) => [a.approver, a.person])).toEqual([
      ['slack:UBOB', 'bob'],
      ['cli:dave', 'cli:dave'],
    ]);
  });

  it('keeps where the request came from and where the rule wants it decided', async () => {
    const result = await core.executor.execute({
      tool: 'create_payout',
      input: big,
      actor: slackActor('UALICE'),
      origin: {
        displayName: 'Alice Lee',
        replyTo: { slackChannel: 'C0OPS', slackThread: '1700000000.000100' },
      },
    });
    const approval = pending(result);
    expect(approval.origin).toEqual({
      frontEnd: 'slack',
      displayName: 'Alice Lee',
      replyTo: { slackChannel: 'C0OPS', slackThread: '1700000000.000100' },
    });
    expect(approval.route).toEqual({ slackChannel: 'C0TREASURY' });
    expect(pending(await core.call('create_payout', PAYOUT, cliActor('carol'))).route).toBeUndefined();
  });
});

describe('the policy file names people', () => {
  it('refuses a person on an entry that matches many identities, and one identity given two people', () => {
    const group = `rules: []\nactors:\n  - match: { slackGroup: STREASURY }\n    roles: [viewer]\n    person: team\n`;
    expect(() => parsePolicyText(group, 'p.yaml')).toThrow(/slackGroup entry matches many identities/);
    const wildcard = `rules: []\nactors:\n  - match: { cli: "*" }\n    roles: [viewer]\n    person: anyone\n`;
    expect(() => parsePolicyText(wildcard, 'p.yaml')).toThrow(/cli '\*' entry/);
    const twice = `rules: []\nactors:\n  - match: { cli: bob }\n    roles: [viewer]\n    person: bob\n  - match: { cli: bob }\n    roles: [approver]\n    person: robert\n`;
    expect(() => parsePolicyText(twice, 'p.yaml')).toThrow(/already the person "bob"/);
  });
});
