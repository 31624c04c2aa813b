import { amountValue, EMPTY, groupedNumber, maskedValue, numeric } from './format.js';
import type { Value, ValueKind } from './model.js';

/**
 * What a field of a tool's output is, read from its name and value: the service's areas name money
 * differently (`availableBalance`, `txn_amount` with `txn_currency`, `sourceAmount` with
 * `sourceAssetCode`, fees in `feeAssetCode`), and one set of rules covers them all.
 */
export type Role =
  | 'id'
  | 'amount'
  | 'currency'
  | 'rate'
  | 'number'
  | 'status'
  | 'masked'
  | 'time'
  | 'link'
  | 'name'
  | 'type'
  | 'boolean'
  | 'text';

type Sibling = Readonly<Record<string, unknown>>;

const CURRENCY_CODE = /^[A-Z]{3}$/;
const loose = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

const MASKED = /masked|truncated|last4|lastfour/;
const AMOUNT = /(amount|balance|fee|limit)$|amount/;
const ID = /(^id$|ids?$|reference$|refid$|slno$|code$|^quote$)/;
const TIME = /(at|date|time|asof|expires|since|until)$/;
const NAME = /(name|description|title|email|merchant|acceptor|nickname|summary)$/;
const TYPE = /(type|kind|direction|method|mode|period|event|rail|rails|side|channel|purposecode)$/;

/** `status`, `kyc_status`, `printing_state`; an address's `state` (`CA`, `Singapore`) is not one. */
const isStatus = (name: string, value: unknown): boolean =>
  name.endsWith('status') ||
  (name.endsWith('state') &&
    typeof value === 'string' &&
    value.length > 2 &&
    /^([A-Z_]+|[a-z_]+)$/.test(value));

/** The role of `key` holding `value` (the key's last segment decides). */
export function roleOf(key: string, value: unknown): Role {
  const name = loose(key.split('.').at(-1) ?? key);
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string' && /^https?:\/\//i.test(value)) return 'link';
  if (MASKED.test(name)) return 'masked';
  if (numeric(value) !== undefined) {
    if (name.endsWith('rate')) return 'rate';
    if (AMOUNT.test(name) && !/count|period/.test(name)) return 'amount';
  }
  if (
    /(currency|assetcode|currencycode)$/.test(name) &&
    typeof value === 'string' &&
    CURRENCY_CODE.test(value)
  )
    return 'currency';
  if (isStatus(name, value)) return 'status';
  if (TIME.test(name) && typeof value === 'string') return 'time';
  if (ID.test(name)) return 'id';
  if (typeof value === 'number') return 'number';
  if (NAME.test(name)) return 'name';
  if (TYPE.test(name)) return 'type';
  return 'text';
}

const SUFFIX = /(_?amount|_?balance|_?fee|_?limit)$/i;

/** Sibling keys that name the currency of amount `key`, most specific first, and whether the pairing is specific. */
function currencyKeys(key: string): { keys: string[]; specific: boolean }[] {
  const prefix = key.replace(SUFFIX, '');
  const name = loose(key);
  const out: { keys: string[]; specific: boolean }[] = [];
  if (prefix !== '' && prefix !== key) {
    const p = prefix.replace(/_$/, '');
    out.push({
      keys: [
        `${p}Currency`,
        `${p}_currency`,
        `${p}AssetCode`,
        `${p}_asset_code`,
        `${p}CurrencyCode`,
        `${p}_currency_code`,
      ],
      specific: true,
    });
  }
  if (name.includes('fee')) out.push({ keys: ['feeAssetCode', 'fee_currency'], specific: true });
  if (name.includes('fee') || name.includes('debit')) out.push({ keys: ['sourceAssetCode'], specific: true });
  out.push({
    keys: ['currency', 'currency_code', 'currencyCode', 'card_currency', 'assetCode'],
    specific: false,
  });
  return out;
}

/**
 * The currency of amount `key` among its siblings, else the one inherited from an enclosing object
 * (an account's `balance` is in the account's currency). `pairedKey` is the sibling that gave it,
 * when it belongs to this amount alone (`txn_currency`), so tables can leave that column out.
 */
export function currencyOf(
  key: string,
  siblings: Sibling,
  inherited: string | undefined,
): { currency?: string; pairedKey?: string } {
  for (const { keys, specific } of currencyKeys(key)) {
    for (const candidate of keys) {
      const value = siblings[candidate];
      if (typeof value === 'string' && CURRENCY_CODE.test(value.trim().toUpperCase())) {
        return specific ? { currency: value, pairedKey: candidate } : { currency: value };
      }
    }
  }
  return inherited === undefined ? {} : { currency: inherited };
}

/** The currency an object states for everything in it (`currency`, `currency_code`), if any. */
export function ownCurrency(object: Sibling): string | undefined {
  for (const key of ['currency', 'currency_code', 'currencyCode', 'card_currency']) {
    const value = object[key];
    if (typeof value === 'string' && CURRENCY_CODE.test(value)) return value;
  }
  return undefined;
}

const KIND: Record<Role, ValueKind> = {
  id: 'id',
  amount: 'amount',
  currency: 'text',
  rate: 'number',
  number: 'number',
  status: 'status',
  masked: 'masked',
  time: 'time',
  link: 'link',
  name: 'text',
  type: 'text',
  boolean: 'boolean',
  text: 'text',
};

/** One scalar (or list of scalars) as a formatted value. */
export function formatValue(
  key: string,
  raw: unknown,
  siblings: Sibling,
  inherited: string | undefined,
): Value {
  if (raw === null || raw === undefined || raw === '') return EMPTY;
  if (Array.isArray(raw)) {
    if (raw.length === 0) return EMPTY;
    const parts = raw.map((item) => formatValue(key, item, siblings, inherited));
    return { text: parts.map((p) => p.text).join(', '), kind: parts[0]?.kind ?? 'text' };
  }
  if (typeof raw === 'object') return { text: JSON.stringify(raw), kind: 'text' };
  const role = roleOf(key, raw);
  const n = numeric(raw);
  switch (role) {
    case 'boolean':
      return { text: raw === true ? 'yes' : 'no', kind: 'boolean' };
    case 'amount':
      return amountValue(n ?? 0, currencyOf(key.split('.').at(-1) ?? key, siblings, inherited).currency);
    case 'rate':
      return { text: String(n), kind: 'number' };
    case 'masked':
      return maskedValue(String(raw));
    case 'number':
      return { text: n === undefined ? String(raw) : groupedNumber(n), kind: 'number' };
    default:
      return { text: String(raw), kind: KIND[role] };
  }
}
