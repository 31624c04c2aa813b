import type { JsonValue } from './canonical-json.js';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Field names whose value is a secret wherever they appear: in the spec, a PIN (`pin`), an
 * activation code, a full card number, the card-details link (`url`), the PIN-setting link
 * (`set_pin_url`), the subscription API key (`x_api_key` / `x-api-key`), our API key and tokens,
 * and the `Authorization` header; plus common names for secrets of our own configuration.
 *
 * Names are compared ignoring case, `-` and `_`, so `cardNumber`, `card_number` and `Card-Number`
 * are one name. `code` is NOT here: it is the envelope's status code almost everywhere; the one
 * tool whose `code` is a secret (family B card assignment) passes it in `extraKeys`.
 */
export const SECRET_KEYS: readonly string[] = [
  'pin',
  'activation_code',
  'card_number',
  'url',
  'set_pin_url',
  'x_api_key',
  'x-api-key',
  'apiKey',
  'token',
  'authorization',
  'access_token',
  'refresh_token',
  'client_secret',
  'signing_secret',
  'password',
  'secret',
  'cvv',
  'cvc',
];

/** Shorter values are not scrubbed from text: they would shred unrelated words and numbers. */
const MIN_SCRUB_LENGTH = 4;

const MAX_DEPTH = 64;

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

const DEFAULT_KEYS: ReadonlySet<string> = new Set(SECRET_KEYS.map(normalizeKey));

function keySet(extraKeys: Iterable<string>): ReadonlySet<string> {
  const extra = [...extraKeys];
  return extra.length === 0 ? DEFAULT_KEYS : new Set([...DEFAULT_KEYS, ...extra.map(normalizeKey)]);
}

/** True when a field of this name carries a secret (default names plus `extraKeys`). */
export function isSecretKey(key: string, extraKeys: Iterable<string> = []): boolean {
  return keySet(extraKeys).has(normalizeKey(key));
}

/**
 * A JSON deep copy of `value` in which every secret field's value is `'[REDACTED]'` (a `null`
 * stays `null`: it reveals nothing). Cycles become `'[Circular]'`, nesting deeper than 64 becomes
 * `'[Truncated]'`, errors become `{name, message}`, values JSON cannot carry are dropped as
 * `JSON.stringify` would drop them, and non-finite numbers become `null`.
 */
export function redact(value: unknown, extraKeys: Iterable<string> = []): JsonValue {
  return copy(value, keySet(extraKeys), new Set(), 0) ?? null;
}

function copy(
  value: unknown,
  keys: ReadonlySet<string>,
  ancestors: Set<object>,
  depth: number,
): JsonValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      if (value === null) return null;
      if (typeof value !== 'object') return undefined;
      if (depth >= MAX_DEPTH) return '[Truncated]';
      if (ancestors.has(value)) return '[Circular]';
      ancestors.add(value);
      try {
        return copyObject(value, keys, ancestors, depth + 1);
      } finally {
        ancestors.delete(value);
      }
  }
}

function copyObject(
  value: object,
  keys: ReadonlySet<string>,
  ancestors: Set<object>,
  depth: number,
): JsonValue | undefined {
  if (value instanceof Error) return { name: value.name, message: value.message };
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return copy(toJson.call(value), keys, ancestors, depth);
  if (Array.isArray(value)) return value.map((item: unknown) => copy(item, keys, ancestors, depth) ?? null);
  const out: { [key: string]: JsonValue } = {};
  for (const [key, field] of Object.entries(value)) {
    if (keys.has(normalizeKey(key))) {
      if (field === null) out[key] = null;
      else if (field !== undefined) out[key] = REDACTED;
    } else {
      const copied = copy(field, keys, ancestors, depth);
      if (copied !== undefined) out[key] = copied;
    }
  }
  return out;
}

/**
 * The secret values held in `value`'s secret fields (strings and numbers, nested ones too), so
 * they can also be scrubbed from free text such as an error message that echoes the input.
 */
export function collectSecrets(value: unknown, extraKeys: Iterable<string> = []): string[] {
  const found = new Set<string>();
  visitSecrets(value, false, { keys: keySet(extraKeys), found, seen: new Set() });
  return [...found];
}

/** What one `collectSecrets` walk knows and finds. */
interface SecretWalk {
  keys: ReadonlySet<string>;
  found: Set<string>;
  seen: Set<object>;
}

// A module function rather than a closure made on every call: every audit entry is walked.
function visitSecrets(node: unknown, underSecret: boolean, walk: SecretWalk): void {
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') {
    if (underSecret) walk.found.add(String(node));
    return;
  }
  if (typeof node !== 'object' || node === null || walk.seen.has(node)) return;
  walk.seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node as unknown[]) visitSecrets(item, underSecret, walk);
    return;
  }
  for (const [key, child] of Object.entries(node))
    visitSecrets(child, underSecret || walk.keys.has(normalizeKey(key)), walk);
}

/**
 * The forms in which known secrets (at least 4 characters) may appear in text: as they are,
 * URL-encoded and JSON-escaped, longest first. Made once for many texts (`sanitizeJson`).
 */
function variantsOf(secrets: Iterable<string>): string[] {
  const variants = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SCRUB_LENGTH) continue;
    variants.add(secret);
    variants.add(JSON.stringify(secret).slice(1, -1));
    try {
      variants.add(encodeURIComponent(secret));
    } catch {
      // A lone surrogate cannot be URL-encoded, so it cannot appear URL-encoded either.
    }
  }
  return [...variants].sort((a, b) => b.length - a.length);
}

function scrubVariants(text: string, variants: readonly string[]): string {
  let out = text;
  for (const variant of variants) out = out.replaceAll(variant, REDACTED);
  return out;
}

/**
 * `text` with every occurrence of each known secret (at least 4 characters) replaced by
 * `'[REDACTED]'`, including its URL-encoded and JSON-escaped forms, longest secret first.
 */
export function scrubText(text: string, secrets: Iterable<string>): string {
  return scrubVariants(text, variantsOf(secrets));
}

/** `'4111111111111111'` → `'411111******1111'` (first six and last four, as PCI DSS allows). */
export function maskCardNumber(cardNumber: string): string {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits)) return REDACTED;
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The ids bankops makes itself, whose hexadecimal digits hold a Luhn-valid run of 13 or more by
 * chance (about one approval id in two hundred): approval ids (`apr_` and 24, with an attempt's
 * `-N`), keyed request ids (`idem-` and 32) and UUIDs.
 */
const OWN_IDS =
  /\b(?:apr_[0-9a-f]{24}(?:-\d+)?|idem-[0-9a-f]{32}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})\b/gi;

/**
 * Groups of digits joined by one space or dash each, 13 digits or more in all (`4111 1111 1111 1111
 * 12/28` holds one), from the first group: shorter runs (dates, amounts, a UUID's groups) are not
 * looked at.
 */
const DIGIT_RUN = /(?<!\d[ -]?)\d(?:[ -]?\d){12,}/g;
/** Whether a text holds such a run at all (most hold none: they are not looked at further). */
const HAS_DIGIT_RUN = /\d(?:[ -]?\d){12}/;

/**
 * Masks every Luhn-valid card number in `text`: 13–19 digits, written whole or in groups joined by
 * one space or dash, wherever it stands (glued to a word, escaped, URL-encoded), the longest first
 * when several groups in a row could be one; digits in a group next to it (`12/28`, a CVC) do not
 * hide it. Not inside one of bankops's own ids: masking those would garble the id an audit entry is
 * found by.
 */
export function maskCardNumbersInText(text: string): string {
  if (!HAS_DIGIT_RUN.test(text)) return text;
  // Found only when a card number is (most strings hold none).
  let ids: (readonly [number, number])[] | undefined;
  const inId = (start: number, end: number) => {
    ids ??= [...text.matchAll(OWN_IDS)].map((m) => [m.index, m.index + m[0].length] as const);
    return ids.some(([from, to]) => start < to && end > from);
  };
  return text.replace(DIGIT_RUN, (run, at: number) =>
    maskRun(run, (start, end) => inId(at + start, at + end)),
  );
}

/** One run of digit groups with each card number in it masked (see `maskCardNumbersInText`). */
function maskRun(run: string, inId: (start: number, end: number) => boolean): string {
  const groups = [...run.matchAll(/\d+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  let out = '';
  let copied = 0;
  let first = 0;
  while (first < groups.length) {
    const start = (groups[first] as { start: number }).start;
    // The longest card number that starts with this group, if any; the next one starts after it.
    let found: { end: number; digits: string } | undefined;
    let next = first + 1;
    let digits = '';
    for (let last = first; last < groups.length; last += 1) {
      const group = groups[last] as { start: number; end: number };
      digits += run.slice(group.start, group.end);
      if (digits.length > 19) break;
      if (digits.length >= 13 && passesLuhn(digits) && !inId(start, group.end)) {
        found = { end: group.end, digits };
        next = last + 1;
      }
    }
    if (found !== undefined) {
      out += `${run.slice(copied, start)}${maskCardNumber(found.digits)}`;
      copied = found.end;
    }
    first = next;
  }
  return out + run.slice(copied);
}

/**
 * Free text made safe to store: known secrets scrubbed, card numbers masked, bearer/basic
 * credentials and anything shaped like a JWT removed, whether or not they were known.
 */
export function sanitizeText(text: string, secrets: Iterable<string> = []): string {
  return sanitizeWith(text, variantsOf(secrets));
}

function sanitizeWith(text: string, variants: readonly string[]): string {
  return maskCardNumbersInText(scrubVariants(text, variants))
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`)
    .replace(/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, REDACTED);
}

/** `sanitizeText` applied to every string (and object key) inside a JSON value. */
export function sanitizeJson(value: JsonValue, secrets: readonly string[] = []): JsonValue {
  return sanitizeJsonWith(value, variantsOf(secrets));
}

function sanitizeJsonWith(value: JsonValue, variants: readonly string[]): JsonValue {
  if (typeof value === 'string') return sanitizeWith(value, variants);
  if (Array.isArray(value)) return value.map((item) => sanitizeJsonWith(item, variants));
  if (typeof value !== 'object' || value === null) return value;
  const out: { [key: string]: JsonValue } = {};
  for (const [key, field] of Object.entries(value))
    out[sanitizeWith(key, variants)] = sanitizeJsonWith(field, variants);
  return out;
}
