import type { CardLimit, WalletA } from './state.js';

/**
 * Values the spec leaves to the program ("program-level default limits") or does not show at all;
 * docs/sandbox/issuing-a.md lists them.
 */

/** Card limits when POST /card omits `limits`: the spec's default purchase limit per transaction. */
export const PROGRAM_DEFAULT_CARD_LIMITS: readonly CardLimit[] = [
  { amount: 250_000, interval: 'PER_TRANSACTION' },
];

/** Wallet limits of a new wallet, taken from the spec's default purchase limits where it has them. */
export const WALLET_DEFAULT_LIMITS: Pick<
  WalletA,
  'dailyLimitAmount' | 'weeklyLimitAmount' | 'monthlyLimitAmount' | 'yearlyLimitAmount' | 'totalLimitAmount'
> = {
  dailyLimitAmount: 500_000,
  weeklyLimitAmount: 1_000_000,
  monthlyLimitAmount: 2_000_000,
  yearlyLimitAmount: 10_000_000,
  totalLimitAmount: 50_000_000,
};

const KYC_HOST = 'https://kyc.sandbox.bankops.test';

/** Where a cardholder with pending KYC submits documents. */
export const kycLinkFor = (cardholderId: string): string =>
  `${KYC_HOST}/kyc/${encodeURIComponent(cardholderId)}`;

/** The document-submission link handed out by GET /kyc/rfi/respond. */
export const rfiLinkFor = (cardholderId: string, token: string): string =>
  `${KYC_HOST}/rfi/${encodeURIComponent(cardholderId)}/${token}`;

/** Status words a new cardholder gets: the spec observes `SUCCESS`; KYC starts pending. */
export const NEW_CARDHOLDER = { status: 'SUCCESS', kycStatus: 'PENDING', reviewStatus: 'PENDING' } as const;
