import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/core/client/index.js';
import type {
  CreateCardBBody,
  UpdateCardStatusBody,
  UpdateSpendLimitBody,
} from '../../../src/core/client/schemas/issuing-b.js';
import {
  cardholderBBody,
  expectNoSecrets,
  expectServiceRefusal,
  failureOf,
} from '../../helpers/issuing-client.js';
import { clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

const ALICE_WALLET = { cardholderId: 'chb_demo_alice', walletId: 'wal_demo_alice_usd' };
const ALICE_VIRTUAL = { ...ALICE_WALLET, cardId: 'card_demo_alice_virtual' };
const ALICE_PHYSICAL = { ...ALICE_WALLET, cardId: 'card_demo_alice_physical' };
const ALICE_STOLEN = { ...ALICE_WALLET, cardId: 'card_demo_alice_stolen' };
const STOCK = { last4: '2468', code: 'K7Q2-9XMA' };

let sandbox: RunningSandbox;
let client: ServiceClient;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = clientFor(sandbox);
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});
beforeEach(() => sandbox.reset());

const agentCodes = () => ({
  agentCode: sandbox.credentials.agentCode,
  subagentCode: sandbox.credentials.subagentCode,
});
const limit = (body: UpdateSpendLimitBody) => body;

describe('issuing family B client: business-rule refusals come back from the service', () => {
  it('refuses a lastName of 12 characters', async () => {
    const requestId = randomUUID();
    const body = cardholderBBody({ lastName: 'Abcdefghijkl' });
    const error = await failureOf(client.issuingB.createCardholder(agentCodes(), body, { requestId }));
    expectServiceRefusal(error, 'issuingB.createCardholder', requestId, /lastName.*at most 11/);
  });

  it('refuses kycReferenceId without kycProviderName', async () => {
    const requestId = randomUUID();
    const body = cardholderBBody({ kycReferenceId: 'sumsub-applicant-0001' });
    const error = await failureOf(client.issuingB.createCardholder(agentCodes(), body, { requestId }));
    expectServiceRefusal(error, 'issuingB.createCardholder', requestId, /kycReferenceId.*kycProviderName/);
  });

  it('refuses setting ACTIVE on a card that is already ACTIVE', async () => {
    const requestId = randomUUID();
    const error = await failureOf(
      client.issuingB.updateCardStatus(ALICE_VIRTUAL, { status: 'ACTIVE' }, { requestId }),
    );
    expectServiceRefusal(error, 'issuingB.updateCardStatus', requestId, /status.*already ACTIVE/);
  });

  it('refuses setting ACTIVE on a card that is not LOCKED', async () => {
    const requestId = randomUUID();
    const error = await failureOf(
      client.issuingB.updateCardStatus(ALICE_PHYSICAL, { status: 'ACTIVE' }, { requestId }),
    );
    expectServiceRefusal(error, 'issuingB.updateCardStatus', requestId, /only a LOCKED card/);
  });

  it('refuses an ATM limit for a WEEK', async () => {
    const requestId = randomUUID();
    const body = limit({
      amount_limit_period: 'WEEK',
      amount_limit: 500,
      transaction_type: 'ATM_CASH_WITHDRAWAL',
    });
    const error = await failureOf(client.issuingB.updateSpendLimit(ALICE_VIRTUAL, body, { requestId }));
    expectServiceRefusal(
      error,
      'issuingB.updateSpendLimit',
      requestId,
      /ATM_CASH_WITHDRAWAL limits support only DAY and MONTH/,
    );
  });

  it('refuses an amount_limit of 0', async () => {
    const requestId = randomUUID();
    const body = limit({ amount_limit_period: 'DAY', amount_limit: 0, transaction_type: 'PURCHASE' });
    const error = await failureOf(client.issuingB.updateSpendLimit(ALICE_VIRTUAL, body, { requestId }));
    expectServiceRefusal(error, 'issuingB.updateSpendLimit', requestId, /amount_limit.*greater than 0/);
  });

  it('refuses wallet functions of a deactivated cardholder', async () => {
    const requestId = randomUUID();
    const error = await failureOf(
      client.issuingB.listWallets({ cardholderId: 'chb_demo_chloe' }, { requestId }),
    );
    expectServiceRefusal(error, 'issuingB.listWallets', requestId, /deactivated/);
  });

  it('refuses a wrong assignment code without echoing the codes or the card number', async () => {
    const requestId = randomUUID();
    const wrong = 'ZZZZ-0000';
    const error = await failureOf(
      client.issuingB.assignCard(ALICE_WALLET, { last_four_digit: STOCK.last4, code: wrong }, { requestId }),
    );
    expectServiceRefusal(error, 'issuingB.assignCard', requestId, /last_four_digit and code/);
    expectNoSecrets(error, [wrong, STOCK.code]);
  });

  it('refuses the card details link of a stolen card without handing out a link', async () => {
    const requestId = randomUUID();
    const error = await failureOf(client.issuingB.getCardToken(ALICE_STOLEN, { requestId }));
    expectServiceRefusal(error, 'issuingB.getCardToken', requestId, /permanently blocked/);
    expect(error.message).not.toMatch(/https?:\/\//);
    expectNoSecrets(error, []);
  });
});

describe('issuing family B client: structural refusals never reach the service', () => {
  const count = (operation: string) => sandbox.stats()[operation] ?? 0;

  it('refuses card_type VIRTUAL in capitals (family B wants virtual) before sending it', async () => {
    const before = count('issuingB.createCard');
    const body = { card_type: 'VIRTUAL' } as unknown as CreateCardBBody;
    const error = await failureOf(client.issuingB.createCard(ALICE_WALLET, body));
    expect(error.kind).toBe('invalid_request');
    expect(error.operation).toBe('issuingB.createCard');
    expect(error.issues.join('\n')).toContain('card_type');
    expect(count('issuingB.createCard')).toBe(before);
  });

  it('refuses a card status outside the spec list and a fractional amount_limit', async () => {
    const statusBefore = count('issuingB.updateCardStatus');
    const status = { status: 'FROZEN' } as unknown as UpdateCardStatusBody;
    const statusError = await failureOf(client.issuingB.updateCardStatus(ALICE_VIRTUAL, status));
    expect(statusError.kind).toBe('invalid_request');
    expect(count('issuingB.updateCardStatus')).toBe(statusBefore);

    const limitBefore = count('issuingB.updateSpendLimit');
    const body = limit({ amount_limit_period: 'DAY', amount_limit: 1.5, transaction_type: 'PURCHASE' });
    const limitError = await failureOf(client.issuingB.updateSpendLimit(ALICE_VIRTUAL, body));
    expect(limitError.kind).toBe('invalid_request');
    expect(limitError.issues.join('\n')).toContain('amount_limit');
    expect(count('issuingB.updateSpendLimit')).toBe(limitBefore);
  });

  it('refuses a card call without x-card-id before sending it', async () => {
    const before = count('issuingB.getCardDetails');
    const error = await failureOf(client.issuingB.getCardDetails({ ...ALICE_WALLET, cardId: '' }));
    expect(error.kind).toBe('invalid_request');
    expect(error.issues.join('\n')).toContain('cardId');
    expect(count('issuingB.getCardDetails')).toBe(before);
  });
});
