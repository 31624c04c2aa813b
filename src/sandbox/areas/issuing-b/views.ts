import { calendarDate, localTimestamp, money, spaceTimestamp } from '../../validate.js';
import { truncateCardNumber } from './card-number.js';
import { purchaseLimitText } from './limits.js';
import type { Card, Cardholder, CardholderFields, OtpMethod, Wallet } from './state.js';

/** Optional fields the detail view shows as null when the cardholder has none. */
const OPTIONAL_FIELDS = [
  'middleName',
  'mobileCountryName',
  'deliveryAddress3',
  'deliveryAddress4',
  'billingAddress3',
  'billingAddress4',
  'kycProviderName',
  'kycReferenceId',
] as const satisfies readonly (keyof CardholderFields)[];

/** Cardholder detail view: all fields plus `id`, `createAt` and `status`. */
export function cardholderView(holder: Cardholder): Record<string, unknown> {
  const optional = Object.fromEntries(OPTIONAL_FIELDS.map((f) => [f, holder.fields[f] ?? null]));
  return {
    id: holder.id,
    ...optional,
    ...holder.fields,
    createAt: spaceTimestamp(holder.createdAt),
    // The spec shows only ACTIVE; INACTIVE is the sandbox's word for a deactivated cardholder.
    status: holder.active ? 'ACTIVE' : 'INACTIVE',
  };
}

/** Wallet-level limits the sandbox reports; the spec gives the fields but no values. */
const WALLET_LIMITS = {
  dailyLimitAmount: 500_000,
  weeklyLimitAmount: 1_000_000,
  monthlyLimitAmount: 2_000_000,
  yearlyLimitAmount: 10_000_000,
  totalLimitAmount: 10_000_000,
};

export function walletView(wallet: Wallet): Record<string, unknown> {
  return {
    id: wallet.id,
    currency: wallet.currency,
    amount: money(wallet.balance),
    holdingCurrency: wallet.currency,
    holdingAmount: money(wallet.balance),
    ...WALLET_LIMITS,
    status: 'ACTIVE',
    createdAt: localTimestamp(wallet.createdAt),
  };
}

export function cardListItem(card: Card): Record<string, unknown> {
  return {
    last4: card.number.slice(-4),
    createdAt: calendarDate(card.createdAt),
    cardId: card.id,
    cardType: card.type,
    cardStatus: card.status,
  };
}

export function cardDetails(card: Card): Record<string, unknown> {
  const physical = card.type === 'PHYSICAL';
  return {
    // Printing and delivery values are not shown in the spec; these are the sandbox's.
    printing_state: physical ? 'PRINTED' : 'NOT_APPLICABLE',
    daily_spend_limit: purchaseLimitText(card.limits, 'DAY'),
    purchase_limit: purchaseLimitText(card.limits, 'TRANSACTION'),
    total_spend_limit: purchaseLimitText(card.limits, 'LIFETIME'),
    weekly_spend_limit: purchaseLimitText(card.limits, 'WEEK'),
    monthly_spend_limit: purchaseLimitText(card.limits, 'MONTH'),
    created_at: localTimestamp(card.createdAt),
    card_type: card.type,
    is_pin_set: card.pinSet,
    card_delivery_status: physical ? 'DELIVERED' : 'NOT_APPLICABLE',
    card_is_primary: card.isPrimary,
    card_number_id: card.numberId,
    truncated_card_number: truncateCardNumber(card.number),
    status: card.status,
  };
}

/**
 * 3DS enrollment view. `destination` is where the OTP goes, in full: the cardholder's registered
 * e-mail (EMAIL) or `+<mobileCountryCode><mobile>` (SMS), read from the cardholder's current
 * details. The API caller owns that data; masking it is left to the front ends that display it.
 */
export function threeDsView(holder: Cardholder, method: OtpMethod): Record<string, unknown> {
  const destination =
    method === 'EMAIL' ? holder.fields.email : `+${holder.fields.mobileCountryCode}${holder.fields.mobile}`;
  return { otp_delivery_method: method, destination, status: 'ACTIVE' };
}

/**
 * KYC view; `kycLink` is empty once KYC is complete, except when `submissionLink` is given (the
 * respond endpoint always hands out a document-submission link).
 */
export function kycView(holder: Cardholder, submissionLink?: string): Record<string, unknown> {
  return {
    kycStatus: holder.kyc.status,
    kycLink: submissionLink ?? (holder.kyc.status === 'COMPLETED' ? '' : holder.kyc.link),
    documentType: 'E_KYC',
    complianceStatus: holder.kyc.complianceStatus,
    email: holder.fields.email,
  };
}
