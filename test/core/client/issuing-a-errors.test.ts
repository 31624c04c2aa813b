import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/core/client/index.js';
import type { CreateCardABody } from '../../../src/core/client/schemas/issuing-a.js';
import {
  birthDateYearsAgo,
  cardholderABody,
  expectNoSecrets,
  expectServiceRefusal,
  failureOf,
} from '../../helpers/issuing-client.js';
import { clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

const BEN = 'cha_demo_ben';
const AVA_VIRTUAL_CARD = 'card_demo_ava_virtual';
/** Already assigned to Ava in the seed. */
const ASSIGNED_STOCK = '5300001000000046';
const STOCK_USD = { number: '5300001000000012', activationCode: '739215' };

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

describe('issuing family A client: business-rule refusals come back from the service', () => {
  it('refuses a cardholder aged 17', async () => {
    const requestId = randomUUID();
    const base = cardholderABody();
    const body = {
      ...base,
      individual: { ...base.individual, date_of_birth: birthDateYearsAgo(sandbox.clock.now(), 17) },
    };
    const error = await failureOf(client.issuingA.createCardholder(agentCodes(), body, { requestId }));
    expectServiceRefusal(error, 'issuingA.createCardholder', requestId, /date_of_birth.*at least 18/);
  });

  it('refuses a mobile number update without its country code', async () => {
    const requestId = randomUUID();
    const error = await failureOf(
      client.issuingA.updateCardholder(
        { cardholderId: BEN },
        { mobile_number: '7700900999', updated_by: 'client-test' },
        { requestId },
      ),
    );
    expectServiceRefusal(error, 'issuingA.updateCardholder', requestId, /mobile_number and country_code/);
    const ben = await client.issuingA.getCardholder({ id: BEN });
    expect(ben.mobile_number).toBe('7700900123');
  });

  it('refuses a card transaction query with from_created_at alone', async () => {
    const requestId = randomUUID();
    const error = await failureOf(
      client.issuingA.listCardTransactions(
        { cardId: AVA_VIRTUAL_CARD },
        { from_created_at: '2026-09-01' },
        { requestId },
      ),
    );
    expectServiceRefusal(
      error,
      'issuingA.listCardTransactions',
      requestId,
      /from_created_at.*to_created_at|to_created_at.*from_created_at/,
    );
  });

  it('refuses assigning a card that is already assigned, without echoing the card number', async () => {
    const requestId = randomUUID();
    const error = await failureOf(
      client.issuingA.assignCard(
        {
          cardholder_id: BEN,
          card_number: ASSIGNED_STOCK,
          card_currency: 'USD',
          card_mode: 'SINGLE',
          createdBy: 'client-test',
        },
        { requestId },
      ),
    );
    expectServiceRefusal(error, 'issuingA.assignCard', requestId, /already assigned/);
    expectNoSecrets(error, [ASSIGNED_STOCK]);
  });

  it('refuses a wrong activation code, without echoing the codes, the PIN or the card number', async () => {
    const assigned = await client.issuingA.assignCard({
      cardholder_id: BEN,
      card_number: STOCK_USD.number,
      card_currency: 'USD',
      card_mode: 'SINGLE',
      createdBy: 'client-test',
    });
    const requestId = randomUUID();
    const wrongCode = '111999';
    const error = await failureOf(
      client.issuingA.activateCard(
        { cardId: assigned.card_id },
        { activation_code: wrongCode, pin: '4826' },
        { requestId },
      ),
    );
    expectServiceRefusal(error, 'issuingA.activateCard', requestId, /activation_code/);
    expectNoSecrets(error, [wrongCode, STOCK_USD.activationCode, '4826', STOCK_USD.number]);
  });

  it('refuses a PIN that is not digits, without echoing it', async () => {
    const requestId = randomUUID();
    const error = await failureOf(
      client.issuingA.resetPin({ cardId: 'card_demo_ava_physical' }, { pin: '12ab' }, { requestId }),
    );
    expectServiceRefusal(error, 'issuingA.resetPin', requestId, /pin/);
    expectNoSecrets(error, ['12ab']);
  });
});

describe('issuing family A client: structural refusals never reach the service', () => {
  it('refuses card_type PHYSICAL on card creation before sending it', async () => {
    const before = sandbox.stats()['issuingA.createCard'] ?? 0;
    const body = {
      card_type: 'PHYSICAL',
      card_holder_id: BEN,
      created_by: 'client-test',
      request_id: randomUUID(),
      program: { purpose: 'COMMERCIAL' },
      authorization_controls: {
        allowed_transaction_count: 'MULTIPLE',
        transaction_limits: { currency: 'USD' },
      },
      is_personalized: false,
    } as unknown as CreateCardABody;
    const error = await failureOf(client.issuingA.createCard(body));
    expect(error.kind).toBe('invalid_request');
    expect(error.operation).toBe('issuingA.createCard');
    expect(error.httpStatus).toBeUndefined();
    expect(error.issues.join('\n')).toContain('card_type');
    expect(sandbox.stats()['issuingA.createCard'] ?? 0).toBe(before);
  });

  it('refuses a cardholder lookup given both id and email', async () => {
    const before = sandbox.stats()['issuingA.listCardholders'] ?? 0;
    const query = { id: BEN, email: 'ben.okafor@demo.bankops.test' } as unknown as { id: string };
    const error = await failureOf(client.issuingA.getCardholder(query));
    expect(error.kind).toBe('invalid_request');
    expect(error.operation).toBe('issuingA.getCardholder');
    expect(sandbox.stats()['issuingA.listCardholders'] ?? 0).toBe(before);
  });

  it('refuses a missing x-cardholder-id before sending', async () => {
    const error = await failureOf(client.issuingA.listWallets({ cardholderId: '' }));
    expect(error.kind).toBe('invalid_request');
    expect(error.issues.join('\n')).toContain('cardholderId');
  });
});
