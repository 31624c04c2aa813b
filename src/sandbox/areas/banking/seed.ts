import type { SandboxContext } from '../../types.js';
import { SEED_USD_PER_UNIT, toMinor } from './money.js';
import type { Account, BankingState, Beneficiary, CurrencyBalance } from './state.js';

/** Demo data every sandbox starts with (documented in docs/sandbox/banking.md). */
const OWNER = 'Demo Trading Pte. Ltd.';
const CREATED = '2026-01-06T09:30:00Z';

type AccountSeed = Omit<Account, 'programCode' | 'paymentMethod' | 'status' | 'createdAt' | 'updatedAt'>;

const ACCOUNTS: readonly AccountSeed[] = [
  {
    accountId: 'acc_usd_0001',
    externalReference: 'EXT-USD-0001',
    currency: 'USD',
    rails: ['swift'],
    accountNumber: '8337104527',
    accountNumberMasked: '******4527',
    iban: null,
    swiftCode: 'CMFGUS33',
    routingNumber: '026073150',
    sortCode: null,
    bankName: 'Community Federal Savings Bank',
    bankAddress: '89-16 Jamaica Ave, Woodhaven, NY 11421, United States',
    accountOwnerName: OWNER,
    jurisdiction: 'US',
    issuanceReference: 'ISS-USD-0001',
    bankDetailsAvailable: true,
  },
  {
    accountId: 'acc_usd_0002',
    externalReference: 'EXT-USD-0002',
    currency: 'USD',
    rails: ['swift'],
    accountNumber: '9120035518',
    accountNumberMasked: '******5518',
    iban: null,
    swiftCode: 'CMFGUS33',
    routingNumber: '026073008',
    sortCode: null,
    bankName: 'Community Federal Savings Bank',
    bankAddress: '89-16 Jamaica Ave, Woodhaven, NY 11421, United States',
    accountOwnerName: OWNER,
    jurisdiction: 'US',
    issuanceReference: 'ISS-USD-0002',
    bankDetailsAvailable: true,
  },
  {
    accountId: 'acc_eur_0001',
    externalReference: 'EXT-EUR-0001',
    currency: 'EUR',
    rails: ['swift'],
    accountNumber: null,
    accountNumberMasked: 'DE89********3000',
    iban: 'DE89370400440532013000',
    swiftCode: 'COBADEFFXXX',
    routingNumber: null,
    sortCode: null,
    bankName: 'Commerzbank AG',
    bankAddress: 'Kaiserplatz, 60311 Frankfurt am Main, Germany',
    accountOwnerName: OWNER,
    jurisdiction: 'EU',
    issuanceReference: 'ISS-EUR-0001',
    bankDetailsAvailable: true,
  },
  {
    accountId: 'acc_gbp_0001',
    externalReference: 'EXT-GBP-0001',
    currency: 'GBP',
    rails: ['swift'],
    accountNumber: '31926819',
    accountNumberMasked: '****6819',
    iban: 'GB29NWBK60161331926819',
    swiftCode: 'CLRBGB22',
    routingNumber: null,
    sortCode: '040075',
    bankName: 'ClearBank Ltd',
    bankAddress: '133 Houndsditch, London EC3A 7BX, United Kingdom',
    accountOwnerName: OWNER,
    jurisdiction: 'GB',
    issuanceReference: 'ISS-GBP-0001',
    bankDetailsAvailable: true,
  },
  {
    // Still being issued: the bank has not yet given coordinates (clients poll the detail view).
    accountId: 'acc_sgd_0001',
    externalReference: 'EXT-SGD-0001',
    currency: 'SGD',
    rails: [],
    accountNumber: null,
    accountNumberMasked: null,
    iban: null,
    swiftCode: null,
    routingNumber: null,
    sortCode: null,
    bankName: null,
    bankAddress: null,
    accountOwnerName: OWNER,
    jurisdiction: 'SG',
    issuanceReference: 'ISS-SGD-0001',
    bankDetailsAvailable: false,
  },
];

/** Opening available balances; JPY is listed by the bank without any account. */
const OPENING: readonly (readonly [string, number])[] = [
  ['USD', 250_000],
  ['EUR', 120_000],
  ['GBP', 80_000],
  ['SGD', 40_000],
  ['JPY', 0],
];

/** The payees every sandbox starts with (bankops seeds its payee directory with them in embedded mode). */
export const SEED_BENEFICIARIES: readonly Omit<Beneficiary, 'createdAtMs'>[] = [
  {
    beneficiaryId: 'ben_us_ach_0001',
    entityType: 'INDIVIDUAL',
    displayName: 'Jane Doe (ACH)',
    currency: 'USD',
    bankCountry: 'US',
    paymentMethod: 'LOCAL',
    clearingSystem: 'ACH',
    accountNumber: '123456789',
  },
  {
    beneficiaryId: 'ben_de_swift_0001',
    entityType: 'COMPANY',
    displayName: 'Rhein Maschinenbau GmbH',
    currency: 'EUR',
    bankCountry: 'DE',
    paymentMethod: 'SWIFT',
    clearingSystem: 'SWIFT',
    accountNumber: null,
  },
  {
    // Account number ending in 0000: every payout to it fails (for testing refunds).
    beneficiaryId: 'ben_us_fail_0001',
    entityType: 'COMPANY',
    displayName: 'Closed Account LLC',
    currency: 'USD',
    bankCountry: 'US',
    paymentMethod: 'LOCAL',
    clearingSystem: 'FEDWIRE',
    accountNumber: '987650000',
  },
];

export function seedBanking(ctx: SandboxContext): BankingState {
  const nowMs = ctx.clock.nowMs();
  const balances = new Map<string, CurrencyBalance>();
  for (const [currency, amount] of OPENING) {
    balances.set(currency, {
      currency,
      availableMinor: toMinor(amount, currency),
      prepaidMinor: 0,
      marginMinor: 0,
      frozenMinor: 0,
      asOfMs: amount === 0 ? null : nowMs,
    });
  }
  return {
    usdPerUnit: { ...SEED_USD_PER_UNIT },
    user: {
      userId: ctx.credentials.userId,
      companyCode: ctx.credentials.companyId,
      email: ctx.credentials.userEmail,
      name: 'Demo Treasury',
      businessName: OWNER,
      entityType: 'COMPANY',
      country: 'SG',
      kycStatus: 'APPROVED',
      status: 'ACTIVE',
      createdAt: '2026-01-05T08:00:00Z',
      updatedAt: '2026-01-05T08:00:00Z',
    },
    accounts: ACCOUNTS.map((a) => ({
      ...a,
      rails: [...a.rails],
      paymentMethod: 'SWIFT',
      status: 'ACTIVE',
      programCode: ctx.credentials.programCode,
      createdAt: CREATED,
      updatedAt: CREATED,
    })),
    balances,
    beneficiaries: new Map(SEED_BENEFICIARIES.map((b) => [b.beneficiaryId, { ...b, createdAtMs: nowMs }])),
    fxQuotes: new Map(),
    payoutQuotes: new Map(),
    conversions: new Map(),
    payouts: new Map(),
  };
}
