import type { SandboxContext } from '../../types.js';
import { hashPin, maskCardNumber } from './card-number.js';
import { newCardholderRecord } from './cardholder-record.js';
import { kycLinkFor, PROGRAM_DEFAULT_CARD_LIMITS, WALLET_DEFAULT_LIMITS } from './defaults.js';
import { seedCardTransactions, seedWalletHistory } from './seed-activity.js';
import type {
  CardholderRecord,
  CardRecord,
  InventoryCard,
  IssuingAState,
  WalletRecord,
  WalletTransaction,
} from './state.js';

/** The demo data users rely on; docs/sandbox/issuing-a.md lists every id, number and code here. */
export const DEMO = {
  ava: 'cha_demo_ava',
  ben: 'cha_demo_ben',
  chloe: 'cha_demo_chloe',
  avaVirtualCard: 'card_demo_ava_virtual',
  avaPhysicalCard: 'card_demo_ava_physical',
  avaUsdWallet: 'wal_demo_ava_usd',
  avaEurWallet: 'wal_demo_ava_eur',
  benUsdWallet: 'wal_demo_ben_usd',
} as const;

const INVENTORY: readonly Omit<InventoryCard, 'assignedCardId'>[] = [
  { cardNumber: '5300001000000012', currency: 'USD', activationCode: '739215' },
  { cardNumber: '5300001000000020', currency: 'USD', activationCode: '481620' },
  { cardNumber: '5300001000000038', currency: 'EUR', activationCode: '905317' },
  { cardNumber: '5300001000000046', currency: 'USD', activationCode: '264088' },
];
/** The last inventory card is already assigned to Ava and active, so PIN reset can be tried at once. */
const AVA_PHYSICAL_NUMBER = '5300001000000046';

function cardholders(ctx: SandboxContext): CardholderRecord[] {
  const codes = { agentCode: ctx.credentials.agentCode, subagentCode: ctx.credentials.subagentCode };
  const ava = newCardholderRecord({
    id: DEMO.ava,
    body: {
      email: 'ava.tan@demo.bankops.test',
      mobile_number: '91234567',
      country_code: 'SG',
      individual: {
        date_of_birth: '1990-04-12',
        name: { title: 'Ms', first_name: 'Ava', last_name: 'Tan', name_on_card: 'AVA TAN' },
        address: {
          line1: '10 Marina Boulevard',
          line2: '#20-01',
          city: 'Singapore',
          state: 'Singapore',
          country: 'SG',
          postcode: '018983',
        },
      },
      type: 'INDIVIDUAL',
      created_by: 'seed',
    },
    createdAt: '2026-06-01 09:00:00',
    ...codes,
    status: 'SUCCESS',
    kycStatus: 'COMPLETED',
    reviewStatus: 'APPROVED',
    kyc: {
      kycStatus: 'COMPLETED',
      complianceStatus: 'COMPLETED',
      documentType: 'E_KYC',
      kycLink: '',
      rfi: null,
    },
  });
  const ben = newCardholderRecord({
    id: DEMO.ben,
    body: {
      email: 'ben.okafor@demo.bankops.test',
      mobile_number: '7700900123',
      country_code: 'GB',
      individual: {
        date_of_birth: '1985-11-03',
        name: { first_name: 'Ben', middle_name: 'Chidi', last_name: 'Okafor' },
        address: {
          line1: '221B Baker Street',
          city: 'London',
          state: 'Greater London',
          country: 'GB',
          postcode: 'NW1 6XE',
        },
      },
      type: 'INDIVIDUAL',
      created_by: 'seed',
    },
    createdAt: '2026-06-15 14:30:00',
    ...codes,
    status: 'PENDING',
    kycStatus: 'PENDING',
    reviewStatus: 'IN_REVIEW',
    kyc: {
      kycStatus: 'PENDING',
      complianceStatus: 'IN_PROGRESS',
      documentType: 'E_KYC',
      kycLink: kycLinkFor(DEMO.ben),
      rfi: {
        services_declined_codes: { address: ['ADDRESS_PROOF_EXPIRED'], document: ['DOCUMENT_UNREADABLE'] },
        declined_reason: 'Proof of address is older than three months and the passport scan is unreadable',
        respondedAt: null,
        submissionLink: null,
      },
    },
  });
  const chloe = newCardholderRecord({
    id: DEMO.chloe,
    body: {
      email: 'chloe.martin@demo.bankops.test',
      mobile_number: '4155550134',
      individual: {
        date_of_birth: '1998-02-27',
        name: { first_name: 'Chloe', last_name: 'Martin' },
        address: {
          line1: '500 Market Street',
          city: 'San Francisco',
          state: 'CA',
          country: 'US',
          postcode: '94105',
        },
      },
      type: 'INDIVIDUAL',
      created_by: 'seed',
    },
    createdAt: '2026-07-01 11:15:00',
    ...codes,
    status: 'INCOMPLETE',
    kycStatus: null,
    reviewStatus: 'PENDING',
    kyc: {
      kycStatus: 'PENDING',
      complianceStatus: 'IN_PROGRESS',
      documentType: 'E_KYC',
      kycLink: kycLinkFor(DEMO.chloe),
      rfi: null,
    },
  });
  return [ava, ben, chloe];
}

function cards(): CardRecord[] {
  const virtual: CardRecord = {
    id: DEMO.avaVirtualCard,
    cardholderId: DEMO.ava,
    cardType: 'VIRTUAL',
    status: 'ACTIVE',
    currency: 'USD',
    maskedNumber: '428571******4242',
    nickname: 'Ava travel',
    createdAt: '2026-06-02T10:00:00Z',
    createdBy: 'seed',
    requestId: null,
    limits: [{ amount: 1_000, interval: 'PER_TRANSACTION' }],
    limitsSource: 'request',
    cardMode: null,
    pinHash: null,
    activatedAt: '2026-06-02T10:00:00Z',
  };
  const physical: CardRecord = {
    id: DEMO.avaPhysicalCard,
    cardholderId: DEMO.ava,
    cardType: 'PHYSICAL',
    status: 'ACTIVE',
    currency: 'USD',
    maskedNumber: maskCardNumber(AVA_PHYSICAL_NUMBER),
    nickname: null,
    createdAt: '2026-06-03T09:00:00Z',
    createdBy: 'seed',
    requestId: null,
    limits: [...PROGRAM_DEFAULT_CARD_LIMITS],
    limitsSource: 'program_default',
    cardMode: 'SINGLE',
    pinHash: hashPin(DEMO.avaPhysicalCard, '1357'),
    activatedAt: '2026-06-04T09:00:00Z',
  };
  return [virtual, physical];
}

function wallet(id: string, cardholderId: string, currency: string, amount: number, createdAt: string) {
  const record: WalletRecord = {
    cardholderId,
    view: {
      id,
      currency,
      amount,
      holdingCurrency: currency,
      holdingAmount: amount,
      ...WALLET_DEFAULT_LIMITS,
      status: 'ACTIVE',
      createdAt,
    },
  };
  return record;
}

export function seedState(ctx: SandboxContext): IssuingAState {
  const [virtualCard, physicalCard] = cards();
  if (virtualCard === undefined || physicalCard === undefined) throw new Error('seed cards missing');
  const programCode = ctx.credentials.programCode;

  const usd = seedWalletHistory({
    walletId: DEMO.avaUsdWallet,
    currency: 'USD',
    programCode,
    card: virtualCard,
    counterpartEmail: 'ben.okafor@demo.bankops.test',
    start: '2026-08-01T10:00:00',
    count: 25,
    firstSlNo: 1001,
  });
  const eur = seedWalletHistory({
    walletId: DEMO.avaEurWallet,
    currency: 'EUR',
    programCode,
    card: virtualCard,
    counterpartEmail: 'ben.okafor@demo.bankops.test',
    start: '2026-09-10T08:00:00',
    count: 1,
    firstSlNo: 2001,
  });
  const wallets = [
    wallet(DEMO.avaUsdWallet, DEMO.ava, 'USD', usd.balance, '2026-06-01T09:05:00'),
    wallet(DEMO.avaEurWallet, DEMO.ava, 'EUR', eur.balance, '2026-06-01T09:06:00'),
    wallet(DEMO.benUsdWallet, DEMO.ben, 'USD', 0, '2026-06-15T14:35:00'),
  ];
  const history = new Map<string, WalletTransaction[]>([
    [DEMO.avaUsdWallet, usd.items],
    [DEMO.avaEurWallet, eur.items],
    [DEMO.benUsdWallet, []],
  ]);

  return {
    cardholders: new Map(cardholders(ctx).map((c) => [c.view.id, c])),
    cards: new Map([virtualCard, physicalCard].map((c) => [c.id, c])),
    inventory: new Map(
      INVENTORY.map((card) => [
        card.cardNumber,
        { ...card, assignedCardId: card.cardNumber === AVA_PHYSICAL_NUMBER ? DEMO.avaPhysicalCard : null },
      ]),
    ),
    wallets: new Map(wallets.map((w) => [w.view.id, w])),
    walletHistory: history,
    cardTransactions: new Map([
      [DEMO.avaVirtualCard, seedCardTransactions(virtualCard, '2026-09-01T08:00:00', 12)],
    ]),
  };
}
