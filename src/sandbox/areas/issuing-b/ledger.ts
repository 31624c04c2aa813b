import { optional } from '../../optional.js';
import { localTimestamp, money } from '../../validate.js';
import { truncateCardNumber } from './card-number.js';
import type { Card, IssuingBState, Transaction, Wallet } from './state.js';

export interface Movement {
  /** Observed values: `deduction`, `FEE`, `fee_SCTF`, `fee_PERTXN`, `P2P`; the sandbox adds `M2P` for loads. */
  type: string;
  direction: 'DEBIT' | 'CREDIT';
  amount: number;
  at: Date;
  refId: string;
  programCode: string;
  status?: string;
  card?: Card;
  merchant?: string;
  email?: string;
  description?: string;
  initiatedBy?: string;
}

/**
 * Moves money in or out of a wallet and appends the history item, so the balance and the
 * history never disagree. The caller has checked the balance covers a debit.
 */
export function post(state: IssuingBState, wallet: Wallet, m: Movement): Transaction {
  const amount = money(m.amount);
  wallet.balance = money(wallet.balance + (m.direction === 'CREDIT' ? amount : -amount));
  state.txnSeq += 1;
  const at = localTimestamp(m.at);
  const txn: Transaction = {
    genericSlNo: state.txnSeq,
    slNo: `SL${String(state.txnSeq).padStart(8, '0')}`,
    wallet_id: wallet.id,
    programCode: m.programCode,
    txn_currency: wallet.currency,
    txn_amount: amount,
    available_amount: wallet.balance,
    available_currency: wallet.currency,
    acquirer_amount: amount.toFixed(2),
    acquirer_currency: wallet.currency,
    txn_type: m.type,
    txn_direction: m.direction,
    txn_ref_id: m.refId,
    txn_email: m.email ?? null,
    txn_description: m.description ?? null,
    txn_status: m.status ?? 'SUCCESS',
    card_acceptor_name: m.merchant ?? '',
    card_id: m.card?.id ?? null,
    initiated_by: m.initiatedBy ?? 'SYSTEM',
    settle_amount: amount,
    settle_currency: wallet.currency,
    billing_amount: amount,
    billing_currency: wallet.currency,
    initiatedAt: at,
    updatedAt: at,
    ...optional('masked_card_number', m.card && truncateCardNumber(m.card.number)),
  };
  wallet.history.push(txn);
  return txn;
}
