import { localTimestamp, money } from '../../validate.js';
import type { CardRecord, CardTransaction, Merchant, WalletTransaction } from './state.js';

/**
 * Seeded wallet history and card transactions: fixed dates and amounts, so the documented
 * filters and pages (docs/sandbox/issuing-a.md) always give the same answers.
 */

const DAY_MS = 86_400_000;

/** The `i`-th entry of a seed list, cycling. */
function cycle<T>(list: readonly T[], i: number): T {
  const value = list[i % list.length];
  if (value === undefined) throw new Error('seed list is empty');
  return value;
}

interface Movement {
  type: string;
  direction: 'DEBIT' | 'CREDIT';
  amount: number;
  status: string;
  acceptor: string;
  description: string | null;
  byCard: boolean;
}

const DEBIT_CYCLE: readonly Movement[] = [
  {
    type: 'deduction',
    direction: 'DEBIT',
    amount: 42.5,
    status: 'APPROVED',
    acceptor: 'Kopi Corner',
    description: null,
    byCard: true,
  },
  {
    type: 'fee_PERTXN',
    direction: 'DEBIT',
    amount: 0.5,
    status: 'SUCCESS',
    acceptor: 'Kopi Corner',
    description: 'per-transaction fee',
    byCard: true,
  },
  {
    type: 'deduction',
    direction: 'DEBIT',
    amount: 120,
    status: 'APPROVED',
    acceptor: 'Skyline Airways',
    description: null,
    byCard: true,
  },
  {
    type: 'FEE',
    direction: 'DEBIT',
    amount: 2,
    status: 'SUCCESS',
    acceptor: '',
    description: 'monthly card fee',
    byCard: false,
  },
  {
    type: 'P2P',
    direction: 'DEBIT',
    amount: 250,
    status: 'SUCCESS',
    acceptor: '',
    description: 'rent share',
    byCard: false,
  },
  {
    type: 'deduction',
    direction: 'DEBIT',
    amount: 18.9,
    status: 'APPROVED',
    acceptor: 'Harbour Books',
    description: null,
    byCard: true,
  },
  {
    type: 'fee_SCTF',
    direction: 'DEBIT',
    amount: 1.25,
    status: 'SUCCESS',
    acceptor: '',
    description: 'cross-currency fee',
    byCard: false,
  },
];

const LOAD: Movement = {
  type: 'P2P',
  direction: 'CREDIT',
  amount: 5000,
  status: 'SUCCESS',
  acceptor: '',
  description: 'wallet load',
  byCard: false,
};

/**
 * `count` items, oldest first, one every three days from `start`: a load, then a cycle of
 * purchases, fees and transfers. Returns the items and the balance they leave.
 */
export function seedWalletHistory(opts: {
  walletId: string;
  currency: string;
  programCode: string;
  card: CardRecord;
  counterpartEmail: string;
  start: string;
  count: number;
  firstSlNo: number;
}): { items: WalletTransaction[]; balance: number } {
  const items: WalletTransaction[] = [];
  let balance = 0;
  const startMs = Date.parse(`${opts.start}Z`);
  for (let i = 0; i < opts.count; i += 1) {
    const m = i === 0 ? LOAD : cycle(DEBIT_CYCLE, i - 1);
    balance = money(balance + (m.direction === 'CREDIT' ? m.amount : -m.amount));
    const at = new Date(startMs + i * 3 * DAY_MS + (i % 5) * 3_600_000);
    const serial = opts.firstSlNo + i;
    items.push({
      genericSlNo: serial,
      slNo: `SL${String(serial).padStart(8, '0')}`,
      wallet_id: opts.walletId,
      programCode: opts.programCode,
      txn_currency: opts.currency,
      txn_amount: m.amount,
      available_amount: balance,
      available_currency: opts.currency,
      acquirer_amount: m.amount.toFixed(2),
      acquirer_currency: opts.currency,
      txn_type: m.type,
      txn_direction: m.direction,
      txn_ref_id: `WTX${String(serial).padStart(10, '0')}`,
      txn_email: m.type === 'P2P' ? opts.counterpartEmail : null,
      txn_description: m.description,
      txn_status: m.status,
      card_acceptor_name: m.acceptor,
      card_id: m.byCard ? opts.card.id : '',
      initiated_by: m.byCard ? 'CARDHOLDER' : 'SYSTEM',
      settle_amount: m.amount,
      settle_currency: opts.currency,
      billing_amount: m.amount,
      billing_currency: opts.currency,
      initiatedAt: localTimestamp(at),
      // Settled items carry the settlement time; the newest ones are not settled yet.
      updatedAt: i < opts.count - 3 ? localTimestamp(new Date(at.getTime() + 3_600_000)) : null,
      ...(m.byCard ? { masked_card_number: opts.card.maskedNumber } : {}),
    });
  }
  return { items, balance };
}

const MERCHANTS: readonly Merchant[] = [
  {
    category_code: '5814',
    city: 'Singapore',
    country: 'SG',
    identifier: 'MID000111',
    name: 'Kopi Corner',
    postcode: '049315',
    state: 'Singapore',
  },
  {
    category_code: '4511',
    city: 'Singapore',
    country: 'SG',
    identifier: 'MID000222',
    name: 'Skyline Airways',
    postcode: '819663',
    state: 'Singapore',
  },
  {
    category_code: '5942',
    city: 'London',
    country: 'GB',
    identifier: 'MID000333',
    name: 'Harbour Books',
    postcode: 'EC1A 1BB',
    state: 'London',
  },
  {
    category_code: '5411',
    city: 'New York',
    country: 'US',
    identifier: 'MID000444',
    name: 'Fresh Market',
    postcode: '10001',
    state: 'NY',
  },
];

const AMOUNTS: readonly number[] = [12.4, 389, 27.95, 64.1, 8.5, 145.3, 19.99, 64.1, 230, 980, 15.75, 42];
/** Item 7 refunds item 3; item 9 is declined for lack of funds. */
const REFUND_OF: Readonly<Record<number, number>> = { 7: 3 };
const DECLINED = new Set([9]);

/** `count` card transactions, oldest first, one every five days from `start` (UTC, `+00:00`). */
export function seedCardTransactions(card: CardRecord, start: string, count: number): CardTransaction[] {
  const startMs = Date.parse(`${start}Z`);
  const items: CardTransaction[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = new Date(startMs + i * 5 * DAY_MS + i * 1_800_000);
    const refundOf = REFUND_OF[i];
    const declined = DECLINED.has(i);
    const merchant = cycle(MERCHANTS, refundOf ?? i);
    const amount = cycle(AMOUNTS, i);
    const serial = String(i + 1).padStart(6, '0');
    items.push({
      acquiring_institution_identifier: `0${merchant.identifier.slice(-5)}`,
      auth_code: declined ? '' : String(100000 + i * 7919).slice(0, 6),
      billing_amount: amount,
      billing_currency: card.currency,
      card_id: card.id,
      card_nickname: card.nickname,
      client_data: null,
      digital_wallet_token_id: i % 4 === 1 ? `dwt_demo_${serial}` : null,
      failure_reason: declined ? 'INSUFFICIENT_FUNDS' : null,
      lifecycle_id: `lc_demo_${serial}`,
      masked_card_number: card.maskedNumber,
      matched_authorizations:
        refundOf === undefined ? [] : [`ctx_demo_${String(refundOf + 1).padStart(6, '0')}`],
      merchant: { ...merchant },
      network_transaction_id: `NTX${serial}`,
      posted_date: declined ? null : new Date(at.getTime() + DAY_MS).toISOString().slice(0, 10),
      retrieval_ref: `RRN${String(400000000 + i)}`,
      risk_details: {
        risk_actions_performed: declined ? ['DECLINE'] : [],
        risk_factors: amount > 500 ? ['HIGH_AMOUNT'] : [],
        three_dsecure_outcome: merchant.category_code === '4511' ? 'AUTHENTICATED' : 'NOT_APPLICABLE',
      },
      status: declined ? 'DECLINED' : 'APPROVED',
      transaction_amount: amount,
      transaction_currency: card.currency,
      transaction_date: `${at.toISOString().slice(0, 19)}+00:00`,
      transaction_id: `ctx_demo_${serial}`,
      transaction_type: refundOf === undefined ? 'PURCHASE' : 'REFUND',
    });
  }
  return items;
}
