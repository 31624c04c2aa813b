import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, mcpStdioActor } from '../../../src/core/actors.js';
import { seat } from '../../../src/core/approvals/quorum.js';
import { PolicyError, parsePolicyText } from '../../../src/core/policy/index.js';
import { statusLine } from '../../../src/present/approval-words.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';
import { connectInMemory, textOf } from '../../mcp/helpers.js';

// Large payouts need one vote from treasury and one from controller (`approval.from`). Ann holds
// both roles, Tom treasury only, Cleo controller only, Terry treasury only; carol asks.
const SHIPPED = readFileSync(fileURLToPath(new URL('../../../policy/default.yaml', import.meta.url)), 'utf8');
const actors = (tomRoles: string) =>
  `  - { match: { cli: ann }, roles: [viewer, treasury, controller] }
  - { match: { cli: tom }, roles: [${tomRoles}] }
  - { match: { cli: terry }, roles: [viewer, treasury] }
  - { match: { cli: cleo }, roles: [viewer, controller] }
  - { match: { cli: carol }, roles: [viewer, operator, treasury, controller] }
  - match: { cli: "*" }
`;
const policyWith = (tomRoles: string) =>
  SHIPPED.replace('  - match: { cli: "*" }\n', actors(tomRoles)).replace(
    '    approval: { approvers: 2, role: approver }',
    '    approval: { from: [{ role: treasury, approvers: 1 }, { role: controller, approvers: 1 }] }',
  );

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore({ policyYaml: policyWith('viewer, treasury') });
});
afterAll(() => core.close());

const big = { ...PAYOUT, beneficiaryId: 'ben_us_ach_0001', destinationRail: 'ACH', amount: 50_000 };

describe('seating voters in groups', () => {
  const groups = [
    { role: 'treasury', approvers: 1 },
    { role: 'controller', approvers: 1 },
  ];
  it('moves a person with both roles to the seat that completes the quorum, whatever the order', () => {
    const both = { person: 'ann', roles: ['treasury', 'controller'] };
    const tom = { person: 'tom', roles: ['treasury'] };
    expect(seat(groups, [both, tom]).complete).toBe(true);
    expect(seat(groups, [tom, both]).complete).toBe(true);
    expect(seat(groups, [both]).groups.map((g) => g.approved)).toEqual([1, 0]);
    expect(seat(groups, [tom, { person: 'terry', roles: ['treasury'] }])).toEqual({
      groups: [
        { role: 'treasury', approvers: 1, approved: 1 },
        { role: 'controller', approvers: 0 + 1, approved: 0 },
      ],
      complete: false,
    });
  });
});

describe('approval.from: a quorum from several groups', () => {
  it('is one form or the other, refused at load otherwise', () => {
    const problems = (approval: string) => {
      try {
        parsePolicyText(
          SHIPPED.replace('    approval: { approvers: 2, role: approver }', `    approval: ${approval}`),
          'p.yaml',
        );
        return [];
      } catch (error) {
        if (error instanceof PolicyError) return [...error.issues];
        throw error;
      }
    };
    expect(
      problems(
        '{ approvers: 2, role: approver, from: [{ role: treasury, approvers: 1 }, { role: controller, approvers: 1 }] }',
      ),
    ).toEqual([
      expect.stringMatching(
        /approval\.approvers: give either from \(groups\) or approvers and role, not both$/,
      ),
      expect.stringMatching(/approval\.role: give either from \(groups\) or approvers and role, not both$/),
    ]);
    expect(problems('{ from: [{ role: treasury, approvers: 1 }] }')).toEqual([
      expect.stringMatching(/approval\.from: needs two groups or more/),
    ]);
    expect(problems('{ from: [{ role: treasury, approvers: 1 }, { role: tresury, approvers: 1 }] }')).toEqual(
      [expect.stringMatching(/approval\.from\[1\]\.role: role "tresury" is not declared in roles$/)],
    );
  });

  it('A with both roles votes, then B with treasury only: approved; the requester never counts', async () => {
    const approval = pending(await core.call('create_payout', big, cliActor('carol')));
    expect(approval.reason).toContain('needs 1 approver with role treasury and 1 with role controller');
    expect(approval.groups).toEqual([
      { role: 'treasury', approvers: 1, approved: 0 },
      { role: 'controller', approvers: 1, approved: 0 },
    ]);
    // carol holds both roles but asked.
    expect(await core.executor.approve(approval.id, cliActor('carol'))).toMatchObject({ status: 'refused' });
    const first = await core.executor.approve(approval.id, cliActor('ann'));
    expect(first.status).toBe('ok');
    if (first.status !== 'ok') return;
    expect(statusLine(first.approval)).toMatch(
      /^Waiting for 1 controller \(1 of 2 \(treasury 1 of 1, controller 0 of 1\)\), until /,
    );
    // An assistant following it over MCP reads the same words first.
    const client = await connectInMemory({
      registry: core.registry,
      getExecutor: async () => core.executor,
      actor: mcpStdioActor(),
    });
    const followed = await client.callTool({ name: 'get_approval', arguments: { approvalId: approval.id } });
    expect(textOf(followed as CallToolResult)).toMatch(/^Waiting for 1 controller \(1 of 2 /);
    expect(followed.structuredContent).toMatchObject({ groups: [{ approved: 1 }, { approved: 0 }] });
    await client.close();
    const done = await core.executor.approve(approval.id, cliActor('tom'));
    expect(done).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
  });

  it('two people of one group leave the other waiting; a person counts once', async () => {
    const approval = pending(await core.call('create_payout', big, cliActor('carol')));
    await core.executor.approve(approval.id, cliActor('tom'));
    const second = await core.executor.approve(approval.id, cliActor('terry'));
    expect(second).toMatchObject({ status: 'ok', approval: { state: 'pending' } });
    if (second.status === 'ok') expect(statusLine(second.approval)).toContain('Waiting for 1 controller');
    expect(await core.executor.approve(approval.id, cliActor('tom'))).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('tom already approved'),
    });
    // Someone holding neither role cannot vote.
    expect(await core.executor.approve(approval.id, cliActor('dave'))).toMatchObject({
      status: 'refused',
      reason: 'cli:dave does not hold the role treasury or controller',
    });
    expect(await core.executor.approve(approval.id, cliActor('cleo'))).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded' },
    });
  });

  it('a vote counts only while its voter holds the role under the policy in force', async () => {
    const approval = pending(await core.call('create_payout', big, cliActor('carol')));
    await core.executor.approve(approval.id, cliActor('tom'));
    // Tom leaves treasury: his vote no longer fills its seat, so Cleo's vote does not complete it.
    writeFileSync(core.policy.path, policyWith('viewer'));
    expect(core.policy.reload()).toEqual({ ok: true });
    const after = await core.executor.approve(approval.id, cliActor('cleo'));
    expect(after).toMatchObject({ status: 'ok', approval: { state: 'pending' } });
    if (after.status === 'ok') expect(statusLine(after.approval)).toContain('Waiting for 1 treasury');
    expect(await core.executor.approve(approval.id, cliActor('terry'))).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded' },
    });
    writeFileSync(core.policy.path, policyWith('viewer, treasury'));
    expect(core.policy.reload()).toEqual({ ok: true });
  });
});
