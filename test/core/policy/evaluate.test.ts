import { describe, expect, it } from 'vitest';
import {
  type Actor,
  canApprove,
  checkApprover,
  evaluate,
  isKnownActor,
  parsePolicyText,
  rolesOf,
} from '../../../src/core/policy/index.js';
import { cliUser, mcpActor, slackUser, tool, tools } from '../../helpers/policy.js';

const digest = 'b'.repeat(64);
const policy = parsePolicyText(
  [
    `mcpKeys: [{ name: bot, sha256: ${digest} }]`,
    'actors:',
    '  - { match: { slackUser: UVIEW }, roles: [viewer] }',
    '  - { match: { slackUser: UOPS }, roles: [operator] }',
    '  - { match: { slackGroup: STREASURY }, roles: [approver] }',
    '  - { match: { slackUser: UNOBODY }, roles: [] }',
    '  - { match: { mcpKey: bot }, roles: [viewer] }',
    '  - { match: { cli: carol }, roles: [operator, approver] }',
    'rules:',
    '  - name: frozen',
    '    tools: [create_beneficiary]',
    '    allow: []',
    '  - name: nested',
    '    tools: [update_card_status_b]',
    '    when:',
    '      all:',
    '        - input: { path: card.status, in: [LOST] }',
    '        - any: [{ input: { path: card.reason, in: [theft, fraud] } }, { input: { path: urgent, in: ["true"] } }]',
    '    allow: [operator]',
    '    approval: { approvers: 3, role: approver }',
    '  - tools: [update_card_status_b]',
    '    allow: [operator]',
    '  - name: eur-only',
    '    tools: [create_conversion]',
    '    when: { amount: { atLeast: { EUR: 100 } } }',
    '    allow: [operator]',
    '    approval: { approvers: 1, role: approver }',
    '  - toolsets: [issuing_b]',
    '    readOnly: true',
    '    allow: [operator]',
    '  - name: reads',
    '    readOnly: true',
    '    allow: [viewer, operator]',
    '  - name: conversions',
    '    tools: [create_conversion]',
    '    allow: [operator]',
  ].join('\n'),
  'evaluate-test.yaml',
);

const viewer = slackUser('UVIEW');
const operator = slackUser('UOPS');

describe('actors and roles', () => {
  it('gives an unknown actor no roles, and an entry with no roles none either', () => {
    expect(rolesOf(policy, slackUser('USTRANGER'))).toEqual([]);
    expect(isKnownActor(policy, slackUser('USTRANGER'))).toBe(false);
    expect(rolesOf(policy, slackUser('UNOBODY'))).toEqual([]);
    expect(isKnownActor(policy, slackUser('UNOBODY'))).toBe(true);
  });

  it('unions the roles of every matching entry (user and group)', () => {
    expect(rolesOf(policy, slackUser('UOPS', ['SOTHER', 'STREASURY']))).toEqual(['operator', 'approver']);
    expect(rolesOf(policy, slackUser('UOPS', ['SOTHER']))).toEqual(['operator']);
  });

  it('matches only the field of the actor’s own front end, never the id label', () => {
    expect(rolesOf(policy, mcpActor('bot'))).toEqual(['viewer']);
    expect(rolesOf(policy, cliUser('carol'))).toEqual(['operator', 'approver']);
    expect(rolesOf(policy, cliUser('dave'))).toEqual([]);
    const forged: Actor = { id: 'slack:UOPS', frontEnd: 'mcp', mcpKeyName: 'UOPS', slackUserId: 'UOPS' };
    expect(rolesOf(policy, forged)).toEqual([]);
    const cliNamedLikeKey: Actor = { id: 'cli:bot', frontEnd: 'cli', cliUser: 'bot', mcpKeyName: 'bot' };
    expect(rolesOf(policy, cliNamedLikeKey)).toEqual([]);
  });

  it('canApprove checks the role; checkApprover also refuses the requester', () => {
    const approver = slackUser('UANNA', ['STREASURY']);
    expect(canApprove(policy, approver, 'approver')).toBe(true);
    expect(canApprove(policy, operator, 'approver')).toBe(false);
    const vote = (a: Actor, requester: Actor) =>
      checkApprover(policy, {
        approver: a,
        requester,
        requesterPerson: requester.id,
        approverRole: 'approver',
      });
    expect(vote(approver, operator)).toEqual({ ok: true, person: approver.id });
    expect(vote(approver, approver)).toEqual({
      ok: false,
      reason: expect.stringContaining('requested this call and cannot approve it'),
    });
    expect(vote(viewer, operator)).toEqual({
      ok: false,
      reason: 'slack:UVIEW does not hold the role approver',
    });
  });
});

describe('evaluate', () => {
  it('denies an unknown actor and says so', () => {
    const decision = evaluate(policy, { tool: tools.listAccounts, input: {}, actor: slackUser('USTRANGER') });
    expect(decision).toEqual({
      decision: 'deny',
      reason: expect.stringContaining('slack:USTRANGER is an unknown actor'),
    });
  });

  it('lets a viewer read but not write', () => {
    expect(evaluate(policy, { tool: tools.listAccounts, input: {}, actor: viewer })).toMatchObject({
      decision: 'allow',
      rule: { index: 5, name: 'reads', label: "'reads'" },
      reason: "list_accounts allowed for role viewer (rule 'reads')",
    });
    const write = evaluate(policy, {
      tool: tools.createConversion,
      input: { amount: 1, currency: 'USD' },
      actor: viewer,
    });
    expect(write).toEqual({
      decision: 'deny',
      rule: { index: 6, name: 'conversions', label: "'conversions'" },
      reason: "create_conversion needs role operator (rule 'conversions'); slack:UVIEW has viewer",
    });
  });

  it('allows an operator write that needs no approval', () => {
    expect(
      evaluate(policy, {
        tool: tools.createConversion,
        input: { amount: 99, currency: 'EUR' },
        actor: operator,
      }),
    ).toMatchObject({ decision: 'allow', rule: { name: 'conversions' } });
  });

  it('the first matching rule decides, even when it does not allow the actor', () => {
    // The issuing_b read rule comes before the general read rule: a viewer is denied there.
    const decision = evaluate(policy, { tool: tools.getCardDetailsB, input: {}, actor: viewer });
    expect(decision).toEqual({
      decision: 'deny',
      rule: { index: 4, name: undefined, label: 'rules[4]' },
      reason: 'get_card_details_b needs role operator (rule rules[4]); slack:UVIEW has viewer',
    });
    expect(evaluate(policy, { tool: tools.getCardDetailsB, input: {}, actor: operator }).decision).toBe(
      'allow',
    );
  });

  it('an empty allow list denies everyone', () => {
    expect(evaluate(policy, { tool: tools.createBeneficiary, input: {}, actor: operator })).toEqual({
      decision: 'deny',
      rule: { index: 0, name: 'frozen', label: "'frozen'" },
      reason: "create_beneficiary is allowed to nobody (rule 'frozen'); slack:UOPS has operator",
    });
  });

  it('denies a call no rule covers', () => {
    expect(evaluate(policy, { tool: tools.createPayout, input: {}, actor: operator })).toEqual({
      decision: 'deny',
      reason: 'no policy rule covers create_payout; calls no rule covers are denied',
    });
  });

  it('evaluates nested all/any input conditions on dotted paths, case-insensitively', () => {
    const status = (input: unknown) =>
      evaluate(policy, { tool: tools.updateCardStatusB, input, actor: operator });
    expect(status({ card: { status: 'LOST', reason: 'theft' } })).toMatchObject({
      decision: 'approval',
      approvers: 3,
      approverRole: 'approver',
      reason: "update_card_status_b needs 3 approvers with role approver (rule 'nested')",
    });
    expect(status({ card: { status: 'lost' }, urgent: true }).decision).toBe('approval');
    expect(status({ card: { status: 'LOST', reason: 'expired' } })).toMatchObject({ decision: 'allow' });
    expect(status({ card: { status: 'LOCKED', reason: 'theft' } })).toMatchObject({ decision: 'allow' });
    expect(status({ card: 'LOST' })).toMatchObject({ decision: 'allow' });
    expect(status(null)).toMatchObject({ decision: 'allow' });
  });

  it('never reads an input path through the prototype', () => {
    const protoPolicy = parsePolicyText(
      'actors: [{match: {cli: "*"}, roles: [op]}]\nrules:\n  - { when: { input: { path: constructor.name, in: [Object] } }, allow: [op], approval: { approvers: 1, role: op } }\n  - { allow: [op] }',
      'proto.yaml',
    );
    expect(evaluate(protoPolicy, { tool: tools.listAccounts, input: {}, actor: cliUser('x') }).decision).toBe(
      'allow',
    );
  });

  it('an amount condition needs a listed currency or a default, and a tool with money', () => {
    const convert = (amount: number, currency: string) =>
      evaluate(policy, { tool: tools.createConversion, input: { amount, currency }, actor: operator })
        .decision;
    expect(convert(100, 'EUR')).toBe('approval');
    expect(convert(100, 'eur')).toBe('approval');
    expect(convert(99.99, 'EUR')).toBe('allow');
    // No USD entry and no default: the amount condition does not match.
    expect(convert(1_000_000, 'USD')).toBe('allow');
    const noMoney = tool('create_conversion');
    expect(
      evaluate(policy, { tool: noMoney, input: { amount: 500, currency: 'EUR' }, actor: operator }).decision,
    ).toBe('allow');
  });

  it('denies when the tool cannot tell the amount', () => {
    const throwing = {
      ...tools.createConversion,
      money: () => {
        throw new Error('no quote');
      },
    };
    expect(evaluate(policy, { tool: throwing, input: {}, actor: operator })).toEqual({
      decision: 'deny',
      reason:
        'cannot tell the amount of this create_conversion call: no quote; denied because the policy cannot be applied',
    });
    const nan = { ...tools.createConversion, money: () => ({ amount: Number.NaN, currency: 'EUR' }) };
    expect(evaluate(policy, { tool: nan, input: {}, actor: operator }).decision).toBe('deny');
  });
});
