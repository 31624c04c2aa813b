/** State of the issuing family B area (spec "Cardholder, family B", "Wallet", "Card", "KYC and RFI"). */

export const CARD_STATUSES = ['INACTIVE', 'ACTIVE', 'LOCKED', 'LOST', 'STOLEN', 'BLOCKED'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];
/** Statuses after which a card can never change again (spec: "permanently blocked"). */
export const PERMANENT_STATUSES: ReadonlySet<CardStatus> = new Set(['LOST', 'STOLEN', 'BLOCKED']);

export const LIMIT_PERIODS = ['DAY', 'WEEK', 'MONTH', 'YEAR', 'LIFETIME', 'TRANSACTION'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
export const LIMIT_TYPES = ['PURCHASE', 'ATM_CASH_WITHDRAWAL'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

export type OtpMethod = 'EMAIL' | 'SMS';

/** The cardholder's fields exactly as the spec's table names them. */
export interface CardholderFields {
  title: string;
  firstName: string;
  middleName?: string;
  lastName: string;
  preferredName: string;
  gender: string;
  dateOfBirth: string;
  mobileCountryName?: string;
  mobileCountryCode: string;
  mobile: string;
  nationality: string;
  email: string;
  deliveryAddress1: string;
  deliveryAddress2: string;
  deliveryAddress3?: string;
  deliveryAddress4?: string;
  deliveryCity: string;
  deliveryState: string;
  deliveryCountry: string;
  deliveryZipCode: string;
  billingAddress1: string;
  billingAddress2: string;
  billingAddress3?: string;
  billingAddress4?: string;
  billingCity: string;
  billingState: string;
  billingCountry: string;
  billingZipCode: string;
  kycProviderName?: string;
  kycReferenceId?: string;
}

export interface Rfi {
  servicesDeclinedCodes: Record<string, string[]>;
  declinedReason: string;
  responded: boolean;
}

export interface Kyc {
  status: 'PENDING' | 'COMPLETED';
  complianceStatus: 'IN_PROGRESS' | 'COMPLETED';
  /** Document submission link; empty once KYC is complete. */
  link: string;
  rfi?: Rfi;
}

export interface Cardholder {
  id: string;
  fields: CardholderFields;
  createdAt: Date;
  /** False once deactivated (control route); the spec does not show what deactivates one. */
  active: boolean;
  agentCode: string;
  subagentCode: string;
  kyc: Kyc;
}

export interface Wallet {
  id: string;
  cardholderId: string;
  currency: string;
  balance: number;
  createdAt: Date;
  /** Newest last; read newest first. */
  history: Transaction[];
}

/** A wallet or card history item, in the spec's field names. */
export interface Transaction {
  genericSlNo: number;
  slNo: string;
  wallet_id: string;
  programCode: string;
  txn_currency: string;
  txn_amount: number;
  available_amount: number;
  available_currency: string;
  acquirer_amount: string;
  acquirer_currency: string;
  txn_type: string;
  txn_direction: 'DEBIT' | 'CREDIT';
  txn_ref_id: string;
  txn_email: string | null;
  txn_description: string | null;
  txn_status: string;
  card_acceptor_name: string;
  card_id: string | null;
  initiated_by: string;
  settle_amount: number;
  settle_currency: string;
  billing_amount: number;
  billing_currency: string;
  initiatedAt: string;
  updatedAt: string | null;
  masked_card_number?: string;
}

export interface SpendLimit {
  amount_limit: number;
  active: boolean;
  amount_limit_period: LimitPeriod;
  transaction_type: LimitType;
  currency_code: string;
}

export interface Card {
  id: string;
  cardholderId: string;
  walletId: string;
  type: 'VIRTUAL' | 'PHYSICAL';
  status: CardStatus;
  /** Full number: a secret, only ever shown behind the details-token link. */
  number: string;
  numberId: string;
  createdAt: Date;
  isPrimary: boolean;
  pinSet: boolean;
  cardPresentEnabled: boolean;
  /** 3DS OTP delivery method; null when not enrolled. */
  threeDs: OtpMethod | null;
  limits: SpendLimit[];
}

/** An unassigned physical card of the inventory, assigned by last four digits and code. */
export interface PhysicalStock {
  number: string;
  /** Assignment code delivered with the card: a secret, never echoed. */
  code: string;
  assignedCardId?: string;
}

export interface IssuingBState {
  cardholders: Map<string, Cardholder>;
  wallets: Map<string, Wallet>;
  cards: Map<string, Card>;
  inventory: PhysicalStock[];
  /** Last `genericSlNo` handed out. */
  txnSeq: number;
}
