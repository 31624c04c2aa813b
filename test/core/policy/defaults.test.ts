import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  defaultPolicyPath,
  evaluate,
  PolicyStore,
  policyPath,
  rolesOf,
} from '../../../src/core/policy/index.js';
import { cliUser, mcpActor, slackUser, tool, tools } from '../../helpers/policy.js';

const policy = PolicyStore.load(defaultPolicyPath()).current();
const alice = cliUser('alice');

const payout = (amount: number, currency: string) =>
  evaluate(policy, { tool: tools.createPayout, input: { amount, currency }, actor: alice });

describe('shipped default policy', () => {
  it('is found next to the package from the module location, and is what load() uses without a path', () => {
    expect(defaultPolicyPath()).toMatch(/[/\\]policy[/\\]default\.yaml$/);
    expect(existsSync(defaultPolicyPath())).toBe(true);
    expect(policyPath(undefined, {})).toBe(defaultPolicyPath());
    expect(policyPath(undefined, { BANKOPS_POLICY: '' })).toBe(defaultPolicyPath());
    expect(policyPath(undefined, { BANKOPS_POLICY: '/etc/bankops/policy.yaml' })).toBe(
      '/etc/bankops/policy.yaml',
    );
    expect(policyPath('/explicit.yaml', { BANKOPS_POLICY: '/etc/bankops/policy.yaml' })).toBe(
      '/explicit.yaml',
    );
  });

  it('gives the local assistant over stdio viewer and operator, never approver, even with a key of the same name', async () => {
    const { mcpStdioActor } = await import('../../../src/core/actors.js');
    expect(rolesOf(policy, mcpStdioActor()).sort()).toEqual(['operator', 'viewer']);
    expect(rolesOf(policy, { id: 'mcp:stdio', frontEnd: 'mcp', mcpKeyName: 'stdio' })).toEqual([]);
    expect(
      evaluate(policy, {
        tool: tools.createPayout,
        input: { amount: 10, currency: 'USD' },
        actor: mcpStdioActor(),
      }),
    ).toMatchObject({ decision: 'approval' });
  });

  it('gives any local CLI user viewer, operator and approver, and Slack and MCP key actors nothing', () => {
    expect(rolesOf(policy, alice).sort()).toEqual(['approver', 'operator', 'viewer']);
    expect(rolesOf(policy, slackUser('U123', ['S1']))).toEqual([]);
    expect(rolesOf(policy, mcpActor('any'))).toEqual([]);
    expect(evaluate(policy, { tool: tools.listAccounts, input: {}, actor: slackUser('U123') })).toMatchObject(
      {
        decision: 'deny',
        reason: expect.stringContaining('unknown actor'),
      },
    );
    expect(policy.mcpKeys).toEqual([]);
  });

  it("lets bankops's balance alerts check read the balances as system:alerts, and nothing of anyone else", async () => {
    const { systemActor } = await import('../../../src/core/actors.js');
    const check = systemActor('alerts');
    expect(rolesOf(policy, check)).toEqual(['viewer']);
    expect(
      evaluate(policy, { tool: tool('get_balances', { readOnly: true }), input: {}, actor: check }),
    ).toMatchObject({
      decision: 'allow',
    });
    expect(rolesOf(policy, systemActor('other'))).toEqual([]);
    // Matched for bankops's own actors only: a Slack user carrying the same field gets nothing of it.
    expect(rolesOf(policy, { ...slackUser('U1'), system: 'alerts' })).toEqual([]);
  });

  it('allows reads and plain writes without approval; a new payee needs one approver', () => {
    expect(evaluate(policy, { tool: tools.listAccounts, input: {}, actor: alice })).toMatchObject({
      decision: 'allow',
      rule: { name: 'reads' },
    });
    expect(evaluate(policy, { tool: tools.createBeneficiary, input: {}, actor: alice })).toMatchObject({
      decision: 'approval',
      rule: { name: 'payee-directory' },
      approvers: 1,
    });
    expect(evaluate(policy, { tool: tools.createSubscription, input: {}, actor: alice }).decision).toBe(
      'allow',
    );
  });

  it('needs one approver below the payout threshold and two from it, per currency', () => {
    expect(payout(49_999.99, 'USD')).toEqual({
      decision: 'approval',
      rule: { index: 5, name: 'payouts', label: "'payouts'" },
      approvers: 1,
      approverRole: 'approver',
      reason: "create_payout of 49999.99 USD needs 1 approver with role approver (rule 'payouts')",
    });
    expect(payout(60_000, 'USD')).toEqual({
      decision: 'approval',
      rule: { index: 2, name: 'large-payouts', label: "'large-payouts'" },
      approvers: 2,
      approverRole: 'approver',
      reason: "create_payout of 60000 USD needs 2 approvers with role approver (rule 'large-payouts')",
    });
    expect(payout(50_000, 'USD')).toMatchObject({ approvers: 2 });
    expect(payout(45_000, 'EUR')).toMatchObject({ approvers: 2 });
    expect(payout(44_999, 'EUR')).toMatchObject({ approvers: 1 });
    expect(payout(40_000, 'GBP')).toMatchObject({ approvers: 2 });
    expect(payout(39_999, 'GBP')).toMatchObject({ approvers: 1 });
    expect(payout(65_000, 'SGD')).toMatchObject({ approvers: 2 });
    expect(payout(60_000, 'SGD')).toMatchObject({ approvers: 1 });
    // Currencies without an entry use `default`.
    expect(payout(50_000, 'JPY')).toMatchObject({ approvers: 2 });
    expect(payout(49_000, 'CHF')).toMatchObject({ approvers: 1 });
  });

  it('puts conversions, wallet transfers and subscription deletion behind one approver', () => {
    for (const tool of [tools.createConversion, tools.transferWalletFunds, tools.deleteSubscription]) {
      expect(
        evaluate(policy, { tool, input: { amount: 1_000_000, currency: 'USD' }, actor: alice }),
      ).toMatchObject({
        decision: 'approval',
        approvers: 1,
        approverRole: 'approver',
      });
    }
  });

  it('needs approval to set a card LOST, STOLEN or BLOCKED, not LOCKED or ACTIVE', () => {
    const status = (value: string) =>
      evaluate(policy, { tool: tools.updateCardStatusB, input: { status: value }, actor: alice });
    for (const permanent of ['LOST', 'STOLEN', 'BLOCKED']) {
      expect(status(permanent)).toMatchObject({
        decision: 'approval',
        approvers: 1,
        rule: { name: 'permanent-card-block' },
      });
    }
    for (const reversible of ['LOCKED', 'ACTIVE', 'INACTIVE']) {
      expect(status(reversible)).toMatchObject({ decision: 'allow', rule: { name: 'writes' } });
    }
  });

  it('keeps the rest of the admin toolset, reads included, to admins', () => {
    for (const tool of [tools.verifyAudit, { ...tools.listApprovals, name: 'export_audit' }]) {
      expect(evaluate(policy, { tool, input: {}, actor: alice })).toMatchObject({
        decision: 'deny',
        rule: { name: 'admin' },
        reason: expect.stringContaining('needs role admin'),
      });
    }
  });

  it('lets every role follow approvals (get_approval, list_approvals), the stdio assistant included', async () => {
    const { mcpStdioActor } = await import('../../../src/core/actors.js');
    const { parsePolicyText } = await import('../../../src/core/policy/index.js');
    const oneRoleEach = parsePolicyText(
      readFileSync(defaultPolicyPath(), 'utf8').replace(
        /^actors:\n/m,
        `actors:\n${['viewer', 'operator', 'approver', 'admin']
          .map((role) => `  - match: { slackUser: U_${role} }\n    roles: [${role}]\n`)
          .join('')}`,
      ),
      'test',
    );
    const getApproval = { ...tools.listApprovals, name: 'get_approval' };
    const actors = [
      ...['viewer', 'operator', 'approver', 'admin'].map((role) => slackUser(`U_${role}`)),
      mcpStdioActor(),
      alice,
    ];
    for (const actor of actors)
      for (const tool of [tools.listApprovals, getApproval]) {
        expect(evaluate(oneRoleEach, { tool, input: {}, actor }), `${actor.id} ${tool.name}`).toMatchObject({
          decision: 'allow',
          rule: { name: 'approval-status' },
        });
      }
    // The rule names the two tools only: it does not open the admin toolset.
    expect(
      evaluate(oneRoleEach, { tool: tools.verifyAudit, input: {}, actor: slackUser('U_viewer') }),
    ).toMatchObject({ decision: 'deny', rule: { name: 'admin' } });
    // Unknown actors still get nothing.
    expect(evaluate(oneRoleEach, { tool: getApproval, input: {}, actor: mcpActor('nobody') })).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('unknown actor'),
    });
  });
});

describe('shipped default policy: a role nobody holds yet', () => {
  it('says so when it refuses a call-back verification, which only a verifier may record', async () => {
    const decision = evaluate(policy, { tool: tool('verify_payee'), input: {}, actor: alice });
    expect(decision).toMatchObject({
      decision: 'deny',
      reason:
        "verify_payee needs role verifier (rule 'payee-verification'); cli:alice has viewer, operator, approver; no entry of the policy's actors gives role verifier yet",
    });
    // A role some entry gives is refused as before, without the note.
    const { systemActor } = await import('../../../src/core/actors.js');
    const alerts = evaluate(policy, {
      tool: tools.createPayout,
      input: { amount: 1, currency: 'USD' },
      actor: systemActor('alerts'),
    });
    expect(alerts).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('needs role operator'),
    });
    expect(alerts.decision === 'deny' ? alerts.reason : '').not.toContain('gives role');
  });
});

describe('shipped default policy: card-data links', () => {
  it('gives links that reveal a card number or set a PIN to operators, not to every reader', async () => {
    const { parsePolicyText } = await import('../../../src/core/policy/index.js');
    const withViewer = parsePolicyText(
      `${readFileSync(defaultPolicyPath(), 'utf8')}\n`.replace(
        /^actors:\n/m,
        'actors:\n  - match: { slackUser: UVIEW }\n    roles: [viewer]\n  - match: { slackUser: UOPS }\n    roles: [operator]\n',
      ),
      'test',
    );
    const link = { ...tools.getCardDetailsB, name: 'get_card_details_link_b' };
    expect(evaluate(withViewer, { tool: link, input: {}, actor: slackUser('UVIEW') })).toMatchObject({
      decision: 'deny',
    });
    expect(evaluate(withViewer, { tool: link, input: {}, actor: slackUser('UOPS') })).toMatchObject({
      decision: 'allow',
    });
    expect(
      evaluate(withViewer, { tool: tools.getCardDetailsB, input: {}, actor: slackUser('UVIEW') }),
    ).toMatchObject({
      decision: 'allow',
    });
  });
});
