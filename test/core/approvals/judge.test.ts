import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { whatWillHappen } from '../../../src/present/approval-words.js';
import { PAYOUT, PAYOUT_DEBIT, pending } from '../../helpers/approvals.js';
import { achBeneficiary, bankingCaller } from '../../helpers/banking.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());
beforeEach(() => core.sandbox.reset());

const big = (amount: number) => ({
  ...PAYOUT,
  beneficiaryId: 'ben_us_ach_0001',
  destinationRail: 'ACH',
  amount,
});

describe('approvals people can judge', () => {
  it('names a payee bankops created, with country, currency, rail and masked account, and the balance now and after', async () => {
    const { companyCode: _configured, ...payee } = achBeneficiary();
    const created = await core.approved('create_beneficiary', payee);
    const approval = pending(
      await core.call('create_payout', {
        ...PAYOUT,
        beneficiaryId: created.beneficiary_id,
        destinationRail: 'ACH',
      }),
    );
    expect(approval.preview?.facts).toMatchObject({
      kind: 'payout',
      payee: {
        id: created.beneficiary_id,
        known: true,
        name: 'John Smith',
        country: 'US',
        currency: 'USD',
        rail: 'LOCAL/ACH',
        accountMasked: '••••8835',
      },
      balance: { available: { amount: 250_000, currency: 'USD' } },
    });
    const debit = approval.preview?.facts?.kind === 'payout' ? approval.preview.facts.totalDebit.amount : 0;
    expect(debit).toBe(1002); // 1,000 + ACH fee 1 + platform fee 0.1 % (docs/sandbox.md)
    const words = whatWillHappen(approval);
    expect(words[0]).toBe(
      `Pay 1,000.00 USD to John Smith (US, USD, LOCAL/ACH, ••••8835), ${created.beneficiary_id}`,
    );
    expect(words).toContain('USD balance: 250,000.00 USD available now, 248,998.00 USD after');
    expect(words).toContainEqual(
      expect.stringMatching(/^Executes only if a fresh quote debits at most 1,007\.01 USD/),
    );
    // The payee's history, from the core's own records: created through an approval, never paid.
    expect(words).toContain('First payment to this beneficiary');
    expect(words).toContainEqual(
      expect.stringMatching(/^Created moments before this request by operator \(CLI\) through approval /),
    );
    expect(words.at(-1)).toBe('Not verified');
  });

  it('says so when the payee is one bankops did not create', async () => {
    // Made at the service directly, not through bankops: its directory has never heard of it.
    const made = await (await bankingCaller(core.sandbox)).post('/beneficiaries', achBeneficiary());
    const outside = (made.body as { data: { beneficiary_id: string } }).data.beneficiary_id;
    const approval = pending(
      await core.call('create_payout', { ...PAYOUT, beneficiaryId: outside, destinationRail: 'ACH' }),
    );
    expect(approval.preview?.facts).toMatchObject({ payee: { id: outside, known: false } });
    expect(whatWillHappen(approval)[0]).toContain('a payee bankops did not create');
  });

  it('shows a card block with the card’s last four, its holder and the change of status', async () => {
    const card = {
      cardholderId: 'chb_demo_alice',
      walletId: 'wal_demo_alice_usd',
      cardId: 'card_demo_alice_virtual',
    };
    const approval = pending(await core.call('update_card_status_b', { ...card, status: 'STOLEN' }));
    expect(approval.preview?.facts).toEqual({
      kind: 'card_status',
      family: 'B',
      cardId: 'card_demo_alice_virtual',
      last4: '4821',
      cardType: 'VIRTUAL',
      holder: 'Alice Tan',
      from: 'ACTIVE',
      to: 'STOLEN',
      permanent: true,
    });
    const words = whatWillHappen(approval);
    expect(words[0]).toBe(
      'Set virtual card ••••4821 of Alice Tan (family B, card_demo_alice_virtual) from ACTIVE to STOLEN',
    );
    expect(words[1]).toContain('permanent');
    // A card the service does not know is refused before anyone is asked.
    const unknown = await core.call('update_card_status_b', { ...card, cardId: 'card_nope', status: 'LOST' });
    expect(unknown.status).toBe('failed');
  });

  it('refuses a debit the balance cannot cover before anyone votes, with both figures', async () => {
    const result = await core.call('create_payout', big(300_000));
    expect(result).toMatchObject({
      status: 'failed',
      error: {
        kind: 'insufficient_balance',
        message: 'the USD balance cannot cover this: 300,301.00 USD to debit, 250,000.00 USD available',
      },
    });
    expect(
      (await core.executor.listApprovals({ tool: 'create_payout' })).some((a) => a.input.amount === 300_000),
    ).toBe(false);
  });

  it('refuses a vote once the balance no longer covers the debit, and records nothing', async () => {
    const first = pending(await core.call('create_payout', big(200_000)));
    const second = pending(await core.call('create_payout', big(100_000)));
    await core.executor.approve(second.id, core.approver);
    expect(await core.executor.approve(second.id, core.approver2)).toMatchObject({
      approval: { state: 'succeeded' },
    });
    const vote = await core.executor.approve(first.id, core.approver);
    expect(vote).toMatchObject({
      status: 'refused',
      reason:
        'not recorded: the USD balance cannot cover this: 200,201.00 USD to debit, 149,899.00 USD available',
    });
    expect(await core.executor.getApproval(first.id)).toMatchObject({ state: 'pending', approvals: [] });
  });

  it('refuses an amount with more decimals than its currency has, never rounding it', async () => {
    const usd = await core.call('create_payout', { ...PAYOUT, amount: 100.123 });
    expect(usd).toMatchObject({
      status: 'invalid',
      errors: [{ path: 'amount', message: 'must have at most 2 decimals for USD (ISO 4217), got 100.123' }],
    });
    const jpy = await core.call('create_conversion', {
      sourceAssetCode: 'USD',
      targetAssetCode: 'JPY',
      amount: 10.5,
      side: 'TARGET',
    });
    expect(jpy).toMatchObject({
      status: 'invalid',
      errors: [
        { path: 'amount', message: 'must be a whole number for JPY (it has no minor unit), got 10.5' },
      ],
    });
    // What fits is taken as it is.
    expect((await core.call('create_payout', { ...PAYOUT, amount: 100.12 })).status).toBe('pending_approval');
  });

  it('says out loud that an identical request joined the one waiting, and how to make a separate one', async () => {
    const input = { ...PAYOUT, amount: 777 };
    const first = await core.call('create_payout', input);
    const again = await core.call('create_payout', input);
    expect(again).toMatchObject({ status: 'pending_approval', approvalId: pending(first).id, joined: true });
    expect(first).not.toHaveProperty('joined');
    const separate = await core.executor.execute({
      tool: 'create_payout',
      input,
      actor: core.operator,
      idempotencyKey: 'second-invoice',
    });
    expect(pending(separate).id).not.toBe(pending(first).id);
  });
});

describe('a payout debit of the shipped example', () => {
  it('is what the sandbox charges', async () => {
    const approval = pending(await core.call('create_payout', PAYOUT));
    expect(approval.preview?.facts).toMatchObject({ totalDebit: { amount: PAYOUT_DEBIT, currency: 'USD' } });
  });
});
