import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../../src/core/actors.js';
import type { ExecuteResult } from '../../../src/core/results.js';
import { creates, PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

// Two payouts under the threshold, to one beneficiary within a day, reach the large-payouts rule.
const SPLITTING = `
roles: [viewer, operator, approver]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator, approver]
rules:
  - name: large-payouts
    tools: [create_payout]
    when:
      any:
        - amount: { atLeast: { USD: 50000 } }
        - total: { of: beneficiary, within: 24h, atLeast: { USD: 50000 } }
    allow: [operator]
    approval: { approvers: 2, role: approver }
  - name: payouts
    tools: [create_payout]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - readOnly: true
    allow: [viewer, operator, approver]
`;

// Payouts run without approval, under a daily limit per requester.
const LIMITED = `
roles: [viewer, operator]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator]
limits:
  zone: Europe/Berlin
  perRequester: { USD: 25000 }
rules:
  - tools: [create_payout]
    allow: [operator]
  - readOnly: true
    allow: [viewer, operator]
`;

const payout = (amount: number, reference: string) => ({ ...PAYOUT, amount, reference });

let core: TestCore | undefined;
async function start(policyYaml: string): Promise<TestCore> {
  core = await createTestCore({ policyYaml });
  return core;
}
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('running totals', () => {
  it('sends the second of two payouts under the threshold to the large-payouts rule; a rejection releases it', async () => {
    const c = await start(SPLITTING);
    const first = pending(await c.call('create_payout', payout(30_000, 'invoice 1')));
    expect(first).toMatchObject({ requiredApprovers: 1, reason: expect.stringContaining("'payouts'") });
    const second = pending(await c.call('create_payout', payout(30_000, 'invoice 2')));
    // The reason says which total reached the rule, so the approvers see the split.
    expect(second).toMatchObject({
      requiredApprovers: 2,
      reason: expect.stringContaining(
        "(rule 'large-payouts'; running total to this beneficiary within 24h 60,000.00 USD (this call included), at least 50,000.00 USD)",
      ),
    });

    // Released: the first no longer counts, so 30,000 + 15,000 stays under the threshold.
    expect(await c.executor.reject(first.id, c.approver, 'duplicate')).toMatchObject({ status: 'ok' });
    const third = pending(await c.call('create_payout', payout(15_000, 'invoice 3')));
    expect(third).toMatchObject({ requiredApprovers: 1 });
    // The second still counts: 30,000 + 15,000 + 10,000 reaches it again.
    const fourth = pending(await c.call('create_payout', payout(10_000, 'invoice 4')));
    expect(fourth).toMatchObject({ requiredApprovers: 2 });
    // Another requester, same beneficiary: the beneficiary's total is what counts.
    const other = pending(await c.call('create_payout', payout(100, 'invoice 5'), cliActor('olivia')));
    expect(other).toMatchObject({ requiredApprovers: 2 });
  });
});

describe('running totals beside the payee controls', () => {
  it('says the total that picked the rule and the cooling-off that added an approver, both', async () => {
    const c = await start(
      SPLITTING.replace(
        'rules:\n',
        'payees:\n  coolingOff: { period: 24h, action: extraApprover }\nrules:\n  - tools: [name_payee]\n    allow: [operator]\n    approval: { approvers: 1, role: approver }\n',
      ),
    );
    pending(await c.call('create_payout', payout(30_000, 'invoice 1')));
    // The payee is named now: a change of bank details for a name, so its cooling-off starts.
    await c.approved('name_payee', { beneficiaryId: PAYOUT.beneficiaryId, name: 'Rhein GmbH' });
    const second = pending(await c.call('create_payout', payout(30_000, 'invoice 2')));
    expect(second).toMatchObject({ requiredApprovers: 3 });
    expect(second.reason).toContain('Rhein GmbH is in the 24h cooling-off period');
    expect(second.reason).toContain(
      "(rule 'large-payouts'; running total to this beneficiary within 24h 60,000.00 USD (this call included), at least 50,000.00 USD)",
    );
  });
});

describe('daily limits', () => {
  it('refuses past the cap, naming the limit and what is left, audited as a denial; direct calls count', async () => {
    const c = await start(LIMITED);
    const results: ExecuteResult[] = [];
    for (const [i, amount] of [10_000, 10_000, 10_000].entries())
      results.push(await c.call('create_payout', payout(amount, `run ${i}`)));
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'denied']);
    expect(results[2]).toMatchObject({
      reason:
        'create_payout of 10,000.00 USD refused: daily limit per requester 25,000.00 USD (Europe/Berlin day): 5,000.00 USD left (policy limits.perRequester)',
    });
    expect(creates(c)).toBe(2);
    // What is left still goes; another person has a limit of their own.
    expect(await c.call('create_payout', payout(5_000, 'rest'))).toMatchObject({ status: 'ok' });
    expect(await c.call('create_payout', payout(10_000, 'x'), cliActor('olivia'))).toMatchObject({
      status: 'ok',
    });

    await c.audit.flush();
    const denied = (await c.audit.list({ limit: 100 })).filter((e) => e.decision === 'deny');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({
      event: 'requested',
      error: expect.stringMatching(/daily limit per requester/),
    });
  });

  it('counts what moved and what waits from before the limit was switched on', async () => {
    // No limit, no total: direct payouts run, and a larger one waits for an approver.
    const open = `${LIMITED.replace(/limits:[\s\S]*?perRequester: \{ USD: 25000 \}\n/, '')}`;
    const c = await start(
      open.replace(
        'rules:\n',
        'rules:\n  - tools: [create_payout]\n    when: { amount: { atLeast: { USD: 9000 } } }\n    allow: [operator]\n    approval: { approvers: 1, role: operator }\n',
      ),
    );
    expect(c.policy.current().limits).toBeUndefined();
    expect(await c.call('create_payout', payout(8_000, 'before 1'))).toMatchObject({ status: 'ok' });
    expect(await c.call('create_payout', payout(8_000, 'before 2'))).toMatchObject({ status: 'ok' });
    pending(await c.call('create_payout', payout(9_000, 'before 3, waiting')));
    // Treasury switches on a daily limit of 25,000 USD per requester, the same day.
    writeFileSync(c.policy.path, LIMITED);
    expect(c.policy.reload()).toEqual({ ok: true });
    // 8,000 + 8,000 + 9,000 (waiting) have used it all: nothing more goes today.
    expect(await c.call('create_payout', payout(100, 'after'))).toMatchObject({
      status: 'denied',
      reason: expect.stringContaining('0.00 USD left'),
    });
  });

  it('stops counting a direct payout that failed for certain', async () => {
    const c = await start(LIMITED.replace('perRequester: { USD: 25000 }', 'perRequester: { USD: 270000 }'));
    // More than the 250,000 USD balance: the service refuses it, so no money moved.
    const refused = await c.call('create_payout', payout(260_000, 'too much'));
    expect(refused).toMatchObject({ status: 'failed' });
    // Counted, 260,000 + 20,000 would pass the 270,000 limit.
    expect(await c.call('create_payout', payout(20_000, 'fits'))).toMatchObject({ status: 'ok' });
  });
});
