import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../../src/core/actors.js';
import { parsePolicyText } from '../../../src/core/policy/parse.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { achBeneficiary } from '../../helpers/banking.js';
import { BREAK_GLASS_POLICY } from '../../helpers/break-glass.js';
import { type ManualClock, manualClock } from '../../helpers/clock.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';
import { raw } from '../../helpers/sandbox.js';

let core: TestCore;
beforeAll(async () => {
  const clock: ManualClock = manualClock('2026-11-20T09:00:00.000Z');
  core = await createTestCore({ policyYaml: BREAK_GLASS_POLICY, clock });
});
afterAll(() => core.close());

const bg = () => core.executor.breakGlass;

describe('break-glass: a pending approval run without its missing votes', () => {
  it('is refused past its cap, to a role without it, to the requester and without a reason', async () => {
    const big = pending(await core.call('create_payout', { ...PAYOUT, amount: 20_000 }));
    const over = await bg().breakGlass(big.id, cliActor('ada'), 'approvers at an offsite');
    expect(over).toMatchObject({ status: 'refused' });
    // Money in words, as everywhere: the bound of the quoted payout it would debit.
    expect(over.status === 'refused' ? over.reason : '').toMatch(
      /at most 10,000\.00 USD \(policy breakGlass\.max\); apr_\w+ would debit 20,\d{3}\.\d{2} USD: approvers vote instead$/,
    );

    const small = pending(await core.call('create_payout', PAYOUT));
    const noRole = await bg().breakGlass(small.id, core.approver, 'in a hurry');
    expect(noRole.status === 'refused' ? noRole.reason : '').toContain('needs role admin');
    const own = await core.call('create_payout', { ...PAYOUT, amount: 1200 }, cliActor('ada'));
    const byRequester = await bg().breakGlass(pending(own).id, cliActor('ada'), 'mine');
    expect(byRequester.status === 'refused' ? byRequester.reason : '').toContain(
      'break-glass is never by the requester',
    );
    expect(await bg().breakGlass(small.id, cliActor('ada'), '  ')).toMatchObject({ status: 'refused' });
    expect(await core.executor.getApproval(small.id)).toMatchObject({ state: 'pending' });
    // Each refusal on record, with its reason, like a refused vote.
    const refusals = await core.audit.list({ approvalId: small.id, limit: 100 });
    expect(refusals.filter((e) => e.decision === 'refused').map((e) => e.error)).toContainEqual(
      expect.stringContaining('break-glass needs role admin'),
    );
  });

  it('still refuses a payee in its cooling-off period', async () => {
    const { companyCode: _c, ...payee } = achBeneficiary();
    const created = await core.approved('create_beneficiary', payee);
    const asked = pending(
      await core.call('create_payout', {
        ...PAYOUT,
        beneficiaryId: String(created.beneficiary_id),
        destinationRail: 'ACH',
      }),
    );
    const cooling = await bg().breakGlass(asked.id, cliActor('ada'), 'urgent supplier');
    expect(cooling.status === 'refused' ? cooling.reason : '').toContain('cooling-off period');
    expect(await core.executor.getApproval(asked.id)).toMatchObject({ state: 'pending' });
  });

  it('stands in for votes on money movements only: an approval without a debit waits for its approvers', async () => {
    const { companyCode: _c, ...payee } = achBeneficiary();
    const asked = pending(await core.call('create_beneficiary', payee));
    const refused = await bg().breakGlass(asked.id, cliActor('ada'), 'supplier waiting');
    expect(refused).toMatchObject({
      status: 'refused',
      reason:
        'break-glass runs money movements under its cap only; create_beneficiary waits for its approvers',
    });
    expect(await bg().breakGlassCheck(asked.id, cliActor('ada'), 'supplier waiting')).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('create_beneficiary waits for its approvers'),
    });
    expect(await core.executor.getApproval(asked.id)).toMatchObject({ state: 'pending' });
    expect(await bg().reviews(asked.id)).toEqual([]);
    const audited = await core.audit.list({ approvalId: asked.id, limit: 100 });
    expect(audited.filter((e) => e.decision === 'refused').map((e) => e.error)).toContainEqual(
      expect.stringContaining('break-glass runs money movements under its cap only'),
    );
    expect(audited.map((e) => e.decision)).not.toContain('break_glass');
  });

  it('refuses a reason the reviewers or the audit log would not get as given', async () => {
    const asked = pending(await core.call('create_payout', { ...PAYOUT, amount: 800 }));
    const ada = cliActor('ada');
    const refusedFor = async (reason: string) => {
      const ran = await bg().breakGlass(asked.id, ada, reason);
      const checked = await bg().breakGlassCheck(asked.id, ada, reason);
      expect(checked.status).toBe('refused');
      return ran.status === 'refused' ? ran.reason : `not refused: ${ran.status}`;
    };
    expect(await refusedFor('x'.repeat(501))).toBe('the reason is 501 characters long; at most 500');
    expect(await refusedFor('payroll\n\u001b[2Kreviewed, nothing to see')).toBe(
      'the reason must be one line of plain text, without control characters',
    );
    expect(await refusedFor('refund to card 4111 1111 1111 1111 today')).toBe(
      'the reason must not hold a card number or a token',
    );
    expect(await refusedFor('use Bearer abcdefghijklmnop to check')).toBe(
      'the reason must not hold a card number or a token',
    );
    expect(await core.executor.getApproval(asked.id)).toMatchObject({ state: 'pending' });
    expect(await bg().reviews(asked.id)).toEqual([]);
    // Trimmed, and 500 characters are taken whole.
    const long = `  ${'r'.repeat(500)}  `;
    expect(await bg().breakGlass(asked.id, ada, long)).toMatchObject({ status: 'ok' });
    expect(await bg().reviews(asked.id)).toMatchObject([{ reason: 'r'.repeat(500) }]);
  });

  it('runs it, audits who and why, and leaves a review two other admins close', async () => {
    const asked = pending(await core.call('create_payout', { ...PAYOUT, amount: 900 }));
    const ran = await bg().breakGlass(asked.id, cliActor('ada'), 'both approvers unreachable, payroll due');
    expect(ran).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    // Every front end's view says it, in one line (MCP get_approval and list_approvals too).
    const said = /^cli:ada at \S+: both approvers unreachable, payroll due; review (open|closed)$/;
    expect((await core.executor.getApproval(asked.id))?.breakGlassSummary).toMatch(said);
    expect((await core.executor.listApprovals()).find((v) => v.id === asked.id)?.breakGlassSummary).toMatch(
      /; review open$/,
    );
    const history = await core.executor.approvalHistory(asked.id);
    expect(history.map((e) => e.kind)).toContain('break_glass');
    const entries = await core.audit.list({ approvalId: asked.id, limit: 100 });
    expect(entries.find((e) => e.decision === 'break_glass')).toMatchObject({
      actor: 'cli:ada',
      error: 'break-glass by cli:ada: both approvers unreachable, payroll due',
    });

    expect((await bg().reviews()).map((r) => r.approvalId)).toContain(asked.id);
    const self = await bg().closeReview(asked.id, cliActor('ada'), 'I did it');
    expect(self).toMatchObject({ status: 'refused' });
    expect(await bg().closeReview(asked.id, core.approver, 'fine')).toMatchObject({ status: 'refused' });
    expect(await bg().closeReview(asked.id, cliActor('bob'), 'called the CFO')).toMatchObject({
      status: 'ok',
      review: { closers: [{ person: 'cli:bob' }] },
    });
    expect(await bg().closeReview(asked.id, cliActor('bob'), 'again')).toMatchObject({ status: 'refused' });
    expect((await bg().reviews()).map((r) => r.approvalId)).toContain(asked.id);
    const closed = await bg().closeReview(asked.id, cliActor('cy'), 'invoice matches');
    expect(closed.status === 'ok' ? closed.review.closedAt : undefined).toBeDefined();
    expect((await core.executor.getApproval(asked.id))?.breakGlassSummary).toMatch(/; review closed$/);
    expect((await bg().reviews()).map((r) => r.approvalId)).not.toContain(asked.id);
    expect(await bg().closeReview(asked.id, cliActor('bob'), 'late')).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('is closed already'),
    });
    // Each refused close is on record, like any refused decision.
    const refused = (await core.audit.list({ approvalId: asked.id, limit: 100 }))
      .filter((e) => e.decision === 'refused')
      .map((e) => [e.actor, e.outcome, e.error]);
    expect(refused).toEqual([
      ['cli:ada', 'failed', expect.stringMatching(/^break-glass review close refused: .*closed by others$/)],
      [
        'cli:approver',
        'failed',
        expect.stringContaining(
          'break-glass review close refused: closing a break-glass review needs role admin',
        ),
      ],
      ['cli:bob', 'failed', expect.stringContaining('already closed their part')],
      ['cli:bob', 'failed', expect.stringContaining('is closed already')],
    ]);
  });

  it('breaks once: a run sent back with a new quote waits for its approvers, its review kept', async () => {
    // 1,000 EUR delivered, paid from USD; the euro rises 10 % before the glass is broken.
    const asked = pending(
      await core.call('create_payout', { ...PAYOUT, destinationAssetCode: 'EUR', side: 'TARGET' }),
    );
    const rates = (eur: number) =>
      raw(core.sandbox, 'POST', '/_sandbox/banking/rates', {
        headers: { 'content-type': 'application/json' },
        body: { rates: { EUR: eur } },
      });
    expect((await rates(1.085 * 1.1)).status).toBe(200);
    try {
      const ran = await bg().breakGlass(asked.id, cliActor('ada'), 'payroll due');
      expect(ran).toMatchObject({ status: 'ok', approval: { state: 'pending', attempt: 2 } });
    } finally {
      expect((await rates(1.085)).status).toBe(200);
    }
    // Back with approvers, it still says the glass was broken, and its review stays open.
    const view = await core.executor.getApproval(asked.id);
    expect(view?.breakGlassSummary).toMatch(/^cli:ada at \S+: payroll due; review open$/);
    expect(
      (await core.executor.listApprovals()).find((v) => v.id === asked.id)?.breakGlassSummary,
    ).toBeDefined();
    const again = await bg().breakGlass(asked.id, cliActor('ada'), 'still due');
    expect(again).toMatchObject({
      status: 'refused',
      reason: `the glass was broken on ${asked.id} already (by cli:ada at ${(await bg().reviews(asked.id))[0]?.at}); its new quote waits for its approvers`,
    });
    expect((await core.audit.list({ approvalId: asked.id, limit: 100 })).at(-1)).toMatchObject({
      decision: 'refused',
      error: expect.stringContaining('the glass was broken on'),
    });
    expect(await core.executor.approve(asked.id, core.approver)).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded', attempt: 2 },
    });
  });

  it("is never reviewed by the approval's requester either", async () => {
    // cy holds the review's role, and asked for the payout ada broke the glass on.
    const asked = pending(await core.call('create_payout', { ...PAYOUT, amount: 700 }, cliActor('cy')));
    expect(await bg().breakGlass(asked.id, cliActor('ada'), 'approvers offline')).toMatchObject({
      status: 'ok',
    });
    // A close's reason is held to the break-glass reason's rules.
    expect(await bg().closeReview(asked.id, cliActor('bob'), 'ok\n\u001b[2J')).toEqual({
      status: 'refused',
      reason: 'the reason must be one line of plain text, without control characters',
    });
    expect(await bg().closeReview(asked.id, cliActor('cy'), 'my own payout, fine')).toEqual({
      status: 'refused',
      reason: `cli:cy requested ${asked.id}; its break-glass review is closed by others`,
    });
    expect(await bg().reviews(asked.id)).toMatchObject([{ closers: [] }]);
    const audited = await core.audit.list({ approvalId: asked.id, limit: 100 });
    expect(audited.filter((e) => e.decision === 'refused').map((e) => e.error)).toEqual([
      `break-glass review close refused: cli:cy requested ${asked.id}; its break-glass review is closed by others`,
    ]);
  });

  it('refuses a policy whose section is invalid, one line per problem', () => {
    expect(() =>
      parsePolicyText(BREAK_GLASS_POLICY.replace('max: { USD: 10000, default: 5000 }', 'max: {}'), 'test'),
    ).toThrow(/breakGlass\.max/);
    // The shipped policy declares its roles: a misspelt one is named with its path.
    expect(() =>
      parsePolicyText(BREAK_GLASS_POLICY.replace('role: admin\n  max', 'role: admn\n  max'), 'test'),
    ).toThrow('breakGlass.role: role "admn" is not declared in roles');
  });
});
