import { minorDigits } from '../../core/money.js';
import type { Value } from './model.js';

/** Formatting of single values, by what they are. Every function returns a complete `Value`. */

export const EMPTY: Value = { text: '—', kind: 'empty' };

const CURRENCY = /^[A-Z]{3}$/;

/** A number the service may send as a string (`"0.50"`); undefined when it is not one. */
export function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/**
 * `250,000.00 USD`: grouped, with the currency's ISO 4217 minor digits. Without a known currency,
 * grouped with the decimals given (a limit of `500000` is `500,000`).
 */
export function amountValue(amount: number, currency: string | undefined): Value {
  const code = currency?.trim().toUpperCase();
  if (code !== undefined && CURRENCY.test(code)) {
    const digits = minorDigits(code);
    const text = amount.toLocaleString('en-US', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    return { text: `${text} ${code}`, kind: 'amount', money: { amount, currency: code } };
  }
  return { text: groupedNumber(amount), kind: 'amount', money: { amount } };
}

/** `1,800`; decimals kept as given (up to 8). */
export const groupedNumber = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 8 });

/** A masked card number as its last four (`•••• 4242`), whatever mask the service used. */
export function maskedValue(text: string): Value {
  const digits = text.replace(/\D/g, '');
  const last = digits.slice(-4);
  return { text: last.length === 4 ? `•••• ${last}` : text, kind: 'masked' };
}

/** Sentence-case label from a field name: `availableBalance` → `Available balance`, `card_id` → `Card ID`. */
export function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .split(/\s+/)
    .map((word) => ACRONYMS.get(word.toLowerCase()) ?? word.toLowerCase());
  const [first = '', ...rest] = words;
  return [`${first.charAt(0).toUpperCase()}${first.slice(1)}`, ...rest].join(' ');
}

const ACRONYMS = new Map(
  ['ID', 'IDs', 'URL', 'FX', 'KYC', 'RFI', 'PIN', 'OTP', 'IBAN', 'SWIFT', 'ATM', 'SMS', '3DS'].map((w) => [
    w.toLowerCase(),
    w,
  ]),
);
