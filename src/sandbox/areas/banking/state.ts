/** State of the banking area: the user, accounts, per-currency balances, beneficiaries, quotes and orders. */
export interface SandboxUser {
  userId: string;
  companyCode: string;
  email: string;
  name: string;
  businessName: string;
  entityType: 'COMPANY';
  country: string;
  kycStatus: 'APPROVED';
  status: 'ACTIVE';
  createdAt: string;
  updatedAt: string;
}

export interface Account {
  accountId: string;
  externalReference: string;
  currency: string;
  paymentMethod: 'SWIFT';
  status: 'ACTIVE';
  rails: string[];
  accountNumber: string | null;
  accountNumberMasked: string | null;
  iban: string | null;
  swiftCode: string | null;
  routingNumber: string | null;
  sortCode: string | null;
  bankName: string | null;
  bankAddress: string | null;
  accountOwnerName: string | null;
  programCode: string;
  jurisdiction: string;
  issuanceReference: string;
  bankDetailsAvailable: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * One currency's balance. Amounts are kept in minor units (cents, yen) so that repeated debits and
 * credits never drift; the views convert them back to JSON numbers.
 */
export interface CurrencyBalance {
  currency: string;
  availableMinor: number;
  prepaidMinor: number;
  marginMinor: number;
  /** Payouts accepted but not yet settled hold their debit here until they complete or fail. */
  frozenMinor: number;
  asOfMs: number | null;
}

export interface Beneficiary {
  beneficiaryId: string;
  entityType: 'INDIVIDUAL' | 'COMPANY';
  /** Optional on create (not required by the corridor schema). */
  displayName: string | null;
  currency: string;
  bankCountry: string;
  paymentMethod: 'LOCAL' | 'SWIFT';
  clearingSystem: string | null;
  accountNumber: string | null;
  createdAtMs: number;
}

interface QuoteBase {
  quoteId: string;
  createdAtMs: number;
  expiresAtMs: number;
  /** Id of the conversion or payout that executed the quote; a used quote is invalidated. */
  usedBy: string | null;
}

export interface FxQuote extends QuoteBase {
  sourceAssetCode: string;
  targetAssetCode: string;
  sourceAmount: number;
  targetAmount: number;
  rate: number;
  inverseRate: number;
}

export interface PayoutQuote extends QuoteBase {
  beneficiaryId: string;
  destinationRail: string;
  sourceAccountId: string;
  sourceAssetCode: string;
  destinationAssetCode: string;
  sourceAmount: number;
  destinationAmount: number;
  fxRate: number;
  processingFee: number;
  networkFee: number | null;
  platformFee: number;
  totalDebitAmount: number;
}

export type ConversionStatus = 'EXECUTING' | 'COMPLETED';

export interface Conversion {
  conversionId: string;
  externalReference: string;
  status: ConversionStatus;
  quoteId: string;
  createdAtMs: number;
}

export type PayoutStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface Payout {
  payoutId: string;
  externalReference: string;
  status: PayoutStatus;
  quoteId: string;
  purposeCode: string;
  reference: string | null;
  createdAtMs: number;
  /** Decided at creation from the beneficiary (account number ending in 0000). */
  willFail: boolean;
  fundingCurrency: string;
  debitMinor: number;
}

export interface BankingState {
  user: SandboxUser;
  accounts: Account[];
  /** Insertion order is the order of the all-balances view. */
  balances: Map<string, CurrencyBalance>;
  beneficiaries: Map<string, Beneficiary>;
  fxQuotes: Map<string, FxQuote>;
  payoutQuotes: Map<string, PayoutQuote>;
  conversions: Map<string, Conversion>;
  payouts: Map<string, Payout>;
  /** Mid-market rates, USD per unit of each known currency. */
  usdPerUnit: Record<string, number>;
}
