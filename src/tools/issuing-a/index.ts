import type { AnyTool } from '../../core/tool.js';
import { listCardTransactionsA } from './card-transactions.js';
import { createCardholderA, getCardholderA, listCardholdersA, updateCardholderA } from './cardholders.js';
import { activateCardA, assignCardA, createCardA, resetPinA } from './cards.js';
import { getKycA, getRfiA, respondRfiA } from './kyc.js';
import { createWalletA, getWalletHistoryA, listWalletsA } from './wallets.js';

/** Issuing family A (`/svc/issuing/api/v1`), toolset `issuing_a`. */
export const issuingATools: readonly AnyTool[] = [
  createCardholderA,
  listCardholdersA,
  getCardholderA,
  updateCardholderA,
  createCardA,
  assignCardA,
  activateCardA,
  resetPinA,
  createWalletA,
  listWalletsA,
  getWalletHistoryA,
  getKycA,
  getRfiA,
  respondRfiA,
  listCardTransactionsA,
];
