/** State of the issuing family A area (spec "Cardholder, family A", "Wallet", "KYC and RFI", ...). */

export type CardholderStatus = 'PENDING' | 'SUCCESS' | 'INCOMPLETE' | 'FAILED';
export const CARDHOLDER_STATUSES: readonly CardholderStatus[] = [
  'PENDING',
  'SUCCESS',
  'INCOMPLETE',
  'FAILED',
];

export interface AddressA {
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  country: string;
  postcode: string;
}

/**
 * The spec makes "the first, second and last" name parts nullable (title, first_name,
 * name_on_card); an optional part the cardholder does not have is null, middle_name included.
 */
export interface NameA {
  title: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string;
  name_on_card: string | null;
}

/** The cardholder exactly as the API shows it. */
export interface CardholderA {
  id: string;
  email: string;
  country_code: string;
  mobile_number: string;
  kyc_status: string | null;
  status: CardholderStatus;
  type: 'INDIVIDUAL';
  postal_address: AddressA;
  individual: {
    address: AddressA;
    date_of_birth: string;
    employers: null;
    name: NameA;
  };
  created_at: string;
  review_status: string;
}

export interface RfiRecord {
  services_declined_codes: { address: string[]; document: string[] };
  declined_reason: string;
  /** Set by the first GET /kyc/rfi/respond; the submission link handed out then. */
  respondedAt: string | null;
  submissionLink: string | null;
}

export interface KycRecord {
  kycStatus: 'COMPLETED' | 'PENDING';
  complianceStatus: 'COMPLETED' | 'IN_PROGRESS';
  documentType: 'E_KYC';
  /** Where the cardholder submits documents while KYC is pending. */
  kycLink: string;
  rfi: RfiRecord | null;
}

/** Internal record: the API view plus what the service keeps but does not show. */
export interface CardholderRecord {
  view: CardholderA;
  agentCode: string;
  subagentCode: string;
  createdBy: string;
  updatedBy: string | null;
  kyc: KycRecord;
}

export interface CardLimit {
  amount: number;
  interval: 'PER_TRANSACTION';
}

export interface CardRecord {
  id: string;
  cardholderId: string;
  cardType: 'VIRTUAL' | 'PHYSICAL';
  /** Virtual cards are ACTIVE at creation; assigned physical cards are INACTIVE until activated. */
  status: 'ACTIVE' | 'INACTIVE';
  currency: string;
  maskedNumber: string;
  nickname: string | null;
  createdAt: string;
  createdBy: string;
  /** Body `request_id` of POST /card, kept as given (not an idempotency key); null for assigned cards. */
  requestId: string | null;
  limits: CardLimit[];
  limitsSource: 'request' | 'program_default';
  cardMode: 'SINGLE' | null;
  /** sha256 of the PIN; the PIN itself is never kept. */
  pinHash: string | null;
  activatedAt: string | null;
}

/** A physical card waiting in the program's stock, to be handed over with POST /card/assign. */
export interface InventoryCard {
  cardNumber: string;
  currency: string;
  activationCode: string;
  assignedCardId: string | null;
}

export interface WalletA {
  id: string;
  currency: string;
  amount: number;
  holdingCurrency: string;
  holdingAmount: number;
  dailyLimitAmount: number;
  weeklyLimitAmount: number;
  monthlyLimitAmount: number;
  yearlyLimitAmount: number;
  totalLimitAmount: number;
  status: 'ACTIVE';
  createdAt: string;
}

export interface WalletRecord {
  view: WalletA;
  cardholderId: string;
}

/** Spec "Wallet or card transaction (history item)". */
export interface WalletTransaction {
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
  card_id: string;
  initiated_by: string;
  settle_amount: number;
  settle_currency: string;
  billing_amount: number;
  billing_currency: string;
  initiatedAt: string;
  updatedAt: string | null;
  masked_card_number?: string;
}

export interface Merchant {
  category_code: string;
  city: string;
  country: string;
  identifier: string;
  name: string;
  postcode: string;
  state: string;
}

/** Spec "Card transaction (family A item)". */
export interface CardTransaction {
  acquiring_institution_identifier: string;
  auth_code: string;
  billing_amount: number;
  billing_currency: string;
  card_id: string;
  card_nickname: string | null;
  client_data: string | null;
  digital_wallet_token_id: string | null;
  failure_reason: string | null;
  lifecycle_id: string;
  masked_card_number: string;
  matched_authorizations: string[];
  merchant: Merchant;
  network_transaction_id: string;
  posted_date: string | null;
  retrieval_ref: string;
  risk_details: {
    risk_actions_performed: string[];
    risk_factors: string[];
    three_dsecure_outcome: string;
  };
  status: string;
  transaction_amount: number;
  transaction_currency: string;
  transaction_date: string;
  transaction_id: string;
  transaction_type: string;
}

export interface IssuingAState {
  cardholders: Map<string, CardholderRecord>;
  cards: Map<string, CardRecord>;
  /** Keyed by the 16-digit card number. */
  inventory: Map<string, InventoryCard>;
  wallets: Map<string, WalletRecord>;
  /** Newest last; keyed by wallet id. */
  walletHistory: Map<string, WalletTransaction[]>;
  /** Newest last; keyed by card id. */
  cardTransactions: Map<string, CardTransaction[]>;
}
