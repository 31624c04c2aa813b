import { describe, expect, it } from 'vitest';
import { diffPolicies } from '../../src/core/policy/diff.js';
import { parsePolicyText } from '../../src/core/policy/index.js';
import { policyDiffLines } from '../../src/present/policy-diff.js';

const BEFORE = `
roles: [viewer, operator, approver, admin]
actors:
  - match: { slackUser: UALICE }
    roles: [viewer, approver]
    person: alice
  - match: { slackUser: UBOB }
    roles: [viewer, approver, admin]
rules:
  - name: large-payouts
    tools: [create_payout]
    when: { amount: { atLeast: { USD: 50000, default: 50000 } } }
    allow: [operator]
    approval: { approvers: 2, role: approver, stepUp: passkey }
  - name: payouts
    tools: [create_payout]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - name: reads
    readOnly: true
    allow: [viewer]
`;

const words = (before: string, after: string): string[] =>
  policyDiffLines(diffPolicies(parsePolicyText(before, 'before'), parsePolicyText(after, 'after')));

describe('a policy change in words', () => {
  it('says that a large payout needs one approver fewer, and without a passkey', () => {
    const after = BEFORE.replace(
      'approvers: 2, role: approver, stepUp: passkey',
      'approvers: 1, role: approver',
    );
    expect(words(BEFORE, after)).toEqual([
      'rule "large-payouts": approvers 2 → 1 (FEWER people must approve)',
      'rule "large-payouts": step-up TURNED OFF (votes no longer confirmed with a passkey)',
    ]);
  });

  it('says who gains and loses roles, who is added, and thresholds that move', () => {
    const after = BEFORE.replace('roles: [viewer, approver, admin]', 'roles: [viewer, operator]')
      .replace('USD: 50000', 'USD: 100000')
      .replace(
        'rules:',
        '  - match: { slackUser: UCAROL }\n    roles: [viewer, approver]\n    person: carol\nrules:',
      );
    expect(words(BEFORE, after)).toEqual([
      'slackUser UBOB: granted operator; revoked approver, admin',
      'person added: slackUser UCAROL (person carol) gets viewer, approver',
      'rule "large-payouts": threshold when.atLeast.USD moved 50000 → 100000',
    ]);
  });

  it('says a rule removed, an approval turned off and rules added', () => {
    const after = BEFORE.replace('    approval: { approvers: 1, role: approver }\n', '').replace(
      / {2}- name: large-payouts[\s\S]*?stepUp: passkey }\n/,
      '  - name: admin\n    toolsets: [admin]\n    allow: [admin]\n',
    );
    expect(words(BEFORE, after)).toEqual([
      'rule "large-payouts" REMOVED (was: allows operator; approval by 2 approver, each confirming with a passkey)',
      'rule "admin" added: allows admin',
      'rule "payouts": approval TURNED OFF, its calls run without approvers',
    ]);
  });

  it('covers any field by its path, and says nothing when only the writing changed', () => {
    const after = BEFORE.replace(
      'approvers: 1, role: approver }',
      'approvers: 1, role: approver, reminder: 2h }',
    );
    expect(words(BEFORE, after)).toEqual(['rule "payouts": approval.reminder added: 2h']);
    expect(words(BEFORE, `# the same, commented\n${BEFORE}`)).toEqual([]);
  });
});
