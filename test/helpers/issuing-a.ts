import { headerSets, type RawResponse, type RunningSandbox, raw } from './sandbox.js';

/** Helpers for the issuing family A sandbox tests (`/svc/issuing/api/v1`). */

export const IA = '/svc/issuing/api/v1';

/** Seeded demo data, as documented in docs/sandbox/issuing-a.md. */
export const DEMO = {
  ava: 'cha_demo_ava',
  avaEmail: 'ava.tan@demo.bankops.test',
  ben: 'cha_demo_ben',
  chloe: 'cha_demo_chloe',
  avaVirtualCard: 'card_demo_ava_virtual',
  avaPhysicalCard: 'card_demo_ava_physical',
  avaUsdWallet: 'wal_demo_ava_usd',
  avaEurWallet: 'wal_demo_ava_eur',
  benUsdWallet: 'wal_demo_ben_usd',
  inventory: [
    { number: '5300001000000012', currency: 'USD', code: '739215' },
    { number: '5300001000000020', currency: 'USD', code: '481620' },
    { number: '5300001000000038', currency: 'EUR', code: '905317' },
  ],
} as const;

export const AGENT_HEADERS = { 'agent-code': 'AGT-DEMO', 'subagent-code': 'SUB-DEMO' };

type Headers = Record<string, string | undefined>;

/** Calls with the HA header set (a fresh `x-request-id` each time unless one is given). */
export function issuingA(sandbox: RunningSandbox, token: string) {
  const call = (method: string, path: string, headers: Headers = {}, body?: unknown): Promise<RawResponse> =>
    raw(sandbox, method, `${IA}${path}`, {
      headers: { ...headerSets(sandbox).HB(token), ...headers },
      ...(body === undefined ? {} : { body }),
    });
  return {
    call,
    get: (path: string, headers: Headers = {}) => call('GET', path, headers),
    post: (path: string, body: unknown, headers: Headers = {}) => call('POST', path, headers, body),
    patch: (path: string, body: unknown, headers: Headers = {}) => call('PATCH', path, headers, body),
  };
}

/** A date of birth that makes the cardholder exactly `years` old on `now` (UTC). */
export function dobForAge(now: Date, years: number): string {
  const y = now.getUTCFullYear() - years;
  const m = now.getUTCMonth() + 1;
  let d = now.getUTCDate();
  // 29 February has no twin in most years; the 28th keeps the age the same.
  if (m === 2 && d === 29) d = 28;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function address(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    line1: '1 Raffles Place',
    line2: 'Tower 2',
    city: 'Singapore',
    state: 'Singapore',
    country: 'SG',
    postcode: '048616',
    ...overrides,
  };
}

/** A valid POST /card/cardholder body; parts can be replaced (a value of `undefined` drops the field). */
export function cardholderBody(
  opts: {
    top?: Record<string, unknown>;
    individual?: Record<string, unknown>;
    name?: Record<string, unknown>;
    address?: Record<string, unknown>;
  } = {},
): Record<string, unknown> {
  return {
    email: 'dana.lee@example.test',
    mobile_number: '81234567',
    individual: {
      date_of_birth: '1992-05-17',
      name: { first_name: 'Dana', last_name: 'Lee', ...opts.name },
      address: address(opts.address),
      ...opts.individual,
    },
    type: 'INDIVIDUAL',
    created_by: 'ops-bot',
    ...opts.top,
  };
}

/** A valid POST /card body for the cardholder. */
export function cardBody(
  cardholderId: string,
  opts: {
    top?: Record<string, unknown>;
    controls?: Record<string, unknown>;
    limits?: Record<string, unknown>;
  } = {},
): Record<string, unknown> {
  return {
    card_type: 'VIRTUAL',
    card_holder_id: cardholderId,
    created_by: 'ops-bot',
    request_id: `req-${Math.random().toString(36).slice(2)}`,
    program: { purpose: 'COMMERCIAL' },
    authorization_controls: {
      allowed_transaction_count: 'MULTIPLE',
      transaction_limits: {
        currency: 'USD',
        limits: [{ amount: 500, interval: 'PER_TRANSACTION' }],
        ...opts.limits,
      },
      ...opts.controls,
    },
    is_personalized: false,
    ...opts.top,
  };
}
