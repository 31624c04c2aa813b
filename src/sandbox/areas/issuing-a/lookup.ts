import { invalid, unknownResource } from '../../errors.js';
import type { SandboxRequest } from '../../types.js';
import type { CardholderRecord, CardRecord, IssuingAState, WalletRecord } from './state.js';

/** Finding the resources a request names; each miss is a 400 naming the id (spec "Errors"). */

export const PREFIX = '/svc/issuing/api/v1';

export function cardholderById(state: IssuingAState, id: string): CardholderRecord {
  const found = state.cardholders.get(id);
  if (found === undefined) throw unknownResource('cardholder', id);
  return found;
}

export function cardById(state: IssuingAState, id: string): CardRecord {
  const found = state.cards.get(id);
  if (found === undefined) throw unknownResource('card', id);
  return found;
}

/** The cardholder of the `x-cardholder-id` header (wallet endpoints). */
export function headerCardholder(state: IssuingAState, req: SandboxRequest): CardholderRecord {
  return cardholderById(state, req.header('x-cardholder-id') ?? '');
}

/** The cardholder of the `x-cardholderHash-id` header (KYC endpoints). */
export function hashHeaderCardholder(state: IssuingAState, req: SandboxRequest): CardholderRecord {
  return cardholderById(state, req.header('x-cardholderHash-id') ?? '');
}

/** The wallet of `x-wallet-id`, which must belong to the cardholder of `x-cardholder-id`. */
export function headerWallet(state: IssuingAState, req: SandboxRequest, cardholderId: string): WalletRecord {
  const id = req.header('x-wallet-id') ?? '';
  const found = state.wallets.get(id);
  if (found === undefined) throw unknownResource('wallet', id);
  if (found.cardholderId !== cardholderId) {
    throw invalid(`wallet '${id}' does not belong to cardholder '${cardholderId}' (x-cardholder-id)`);
  }
  return found;
}
