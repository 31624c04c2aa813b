import type { AnyTool } from '../../core/tool.js';
import { cardControlTools } from './card-controls.js';
import { cardholderTools } from './cardholders.js';
import { cardTools } from './cards.js';
import { kycTools } from './kyc.js';
import { pinTools } from './pin.js';
import { transferWalletFunds } from './transfer.js';
import { walletTools } from './wallets.js';

/** Issuing family B (`/issuing/api/v1`): cardholders, wallets, transfers, cards, PIN, 3DS, limits, KYC. */
export const issuingBTools: readonly AnyTool[] = [
  ...cardholderTools,
  ...walletTools,
  transferWalletFunds,
  ...cardTools,
  ...pinTools,
  ...cardControlTools,
  ...kycTools,
];
