import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../src/core/approvals/view-schema.js';
import { diffPolicies } from '../../src/core/policy/diff.js';
import { parsePolicyText } from '../../src/core/policy/index.js';
import { ruleWords, whatWillHappen } from '../../src/present/approval-words.js';
import { approvalDocument } from '../../src/present/output/approval.js';

// A policy change approval in the words every front end takes (CLI, MCP, Slack, the page).

const before = parsePolicyText(
  `actors:
  - { match: { cli: ops }, roles: [operator] }
rules:
  - { name: large-payouts, tools: [create_payout], allow: [operator], approval: { approvers: 2, role: approver } }
`,
  'before.yaml',
);
const after = {
  ...before,
  rules: before.rules.map((r) => ({ ...r, approval: { approvers: 1, role: 'approver' } })),
};

const view: ApprovalView = {
  id: 'apr_change',
  tool: 'propose_policy',
  state: 'pending',
  input: { text: '…' },
  requester: 'cli:alice',
  requesterPerson: 'alice',
  origin: { frontEnd: 'cli', displayName: 'alice' },
  requiredApprovers: 2,
  approverRole: 'admin',
  reason: 'a policy change needs 2 approvers with role admin, never its proposer (governance)',
  policyVersion: 4,
  preview: {
    summary: 'Change the policy from version 4',
    facts: {
      kind: 'policy_change',
      from: { version: 4, hash: 'a'.repeat(64) },
      hash: 'b'.repeat(64),
      changes: diffPolicies(before, after),
    },
    details: {},
  },
  attempt: 1,
  approvals: [],
  createdAt: '2026-11-29T00:00:00.000Z',
  updatedAt: '2026-11-29T00:00:00.000Z',
  expiresAt: '2026-11-30T00:00:00.000Z',
  requestId: 'apr_change-1',
};

describe('a policy change approval in words', () => {
  it('says what changes and the version it was opened under', () => {
    expect(whatWillHappen(view)).toEqual([
      'Change the policy in force from version 4 (sha256 aaaaaaaaaaaa) to the proposed one (sha256 bbbbbbbbbbbb)',
      'rule "large-payouts": approvers 2 → 1 (FEWER people must approve)',
    ]);
    expect(ruleWords(view)).toBe(
      'a policy change needs 2 approvers with role admin, never its proposer (governance); opened under policy version 4',
    );
    const { policyVersion: _, ...older } = view;
    expect(ruleWords(older)).toBe(view.reason);
    expect(JSON.stringify(approvalDocument(view))).toContain('opened under policy version 4');
  });
});
