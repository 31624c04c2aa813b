import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../../src/core/actors.js';
import { whatWillHappen } from '../../../src/present/approval-words.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { achBeneficiary } from '../../helpers/banking.js';
import { type ManualClock, manualClock } from '../../helpers/clock.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

// The shipped policy, with a verifier, the creator holding `verifier` too, and the payee controls.
const SHIPPED = readFileSync(fileURLToPath(new URL('../../../policy/default.yaml', import.meta.url)), 'utf8');
const POLICY = `${SHIPPED.replace(
  '  - match: { cli: "*" }\n',
  `  - match: { cli: vera }
    roles: [verifier]
  - match: { cli: operator }
    roles: [verifier]
  - match: { cli: "*" }\n`,
)}
payees:
  coolingOff: { period: 24h, action: refuse }
  firstPaymentMax: { USD: 10000 }
`;

let core: TestCore;
let clock: ManualClock;
beforeAll(async () => {
  clock = manualClock('2026-11-20T09:00:00.000Z');
  core = await createTestCore({ policyYaml: POLICY, clock });
});
afterAll(() => core.close());

const payout = (beneficiaryId: string, amount = 1000) => ({
  ...PAYOUT,
  beneficiaryId,
  destinationRail: 'ACH',
  amount,
});

describe('payee controls: a new payee is held, verified by call-back, then paid with its history shown', () => {
  it('refuses during the cooling-off, keeps verification apart, caps the first payment, and shows the facts', async () => {
    const { companyCode: _configured, ...payee } = achBeneficiary();
    const created = await core.approved('create_beneficiary', payee);
    const id = String(created.beneficiary_id);

    const held = await core.call('create_payout', payout(id));
    expect(held).toMatchObject({ status: 'denied' });
    const reason = held.status === 'denied' ? held.reason : '';
    expect(reason).toContain('refused during the 24h cooling-off period');
    expect(reason).toContain('policy payees.coolingOff');

    // The person who created the payee may not verify it, whatever roles they hold.
    const own = await core.call(
      'verify_payee',
      { payee: 'john  SMITH', method: 'callback', contact: '+1 555 0100 2233', note: 'own call' },
      cliActor('operator'),
    );
    expect(own.status).toBe('invalid');
    expect(JSON.stringify(own)).toContain('created or changed John Smith');

    // Matched by name, case-insensitively with spaces collapsed.
    const verified = await core.call(
      'verify_payee',
      {
        payee: 'john  SMITH',
        method: 'callback',
        contact: '+1 555 0100 2233',
        note: 'Jane in accounts confirmed',
      },
      cliActor('vera'),
    );
    expect(verified).toMatchObject({ status: 'ok', output: { beneficiaryId: id } });
    // Verified, but still in its period: the policy did not say endsWhenVerified.
    expect(await core.call('create_payout', payout(id))).toMatchObject({ status: 'denied' });

    clock.advance(25 * 3_600_000);
    const capped = await core.call('create_payout', payout(id, 20_000));
    expect(capped).toMatchObject({ status: 'denied' });
    expect(capped.status === 'denied' ? capped.reason : '').toContain(
      'a first payment to John Smith may be at most 10000 USD (policy payees.firstPaymentMax)',
    );

    const approval = pending(await core.call('create_payout', payout(id)));
    const words = whatWillHappen(approval);
    expect(words).toContain('First payment to this beneficiary');
    expect(words).toContainEqual(
      expect.stringMatching(/^Created 25 hours before this request by operator \(CLI\) through approval /),
    );
    expect(words).toContainEqual(
      expect.stringMatching(/^Verified by call-back by vera \(CLI\) on 2026-11-20 \(••••2233\)/),
    );

    // Paid once: the next approval says so.
    expect(await core.executor.approve(approval.id, core.approver)).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded' },
    });
    const next = pending(await core.call('create_payout', payout(id, 500)));
    expect(whatWillHappen(next)).toContainEqual(expect.stringMatching(/^Paid 1 time before: /));
  });

  it('naming a payee made elsewhere starts its cooling-off and undoes its verification', async () => {
    const named = await core.approved('name_payee', { beneficiaryId: 'ben_us_ach_0001', name: 'Acme  Corp' });
    expect(named).toMatchObject({ change: { kind: 'named', by: { actorId: 'cli:operator' } } });
    const held = await core.call('create_payout', payout('ben_us_ach_0001'));
    expect(held.status === 'denied' ? held.reason : held.status).toContain('to Acme Corp is refused');
  });
});
