import { defineArea } from '../../area.js';
import { activationRoutes } from './routes/activation.js';
import { cardholderRoutes } from './routes/cardholders.js';
import { cardRoutes } from './routes/cards.js';
import { controlRoutes } from './routes/control.js';
import { kycRoutes } from './routes/kyc.js';
import { transactionRoutes } from './routes/transactions.js';
import { walletRoutes } from './routes/wallets.js';
import { seedState } from './seed.js';
import type { IssuingAState } from './state.js';

/** Issuing family A (`/svc/issuing/api/v1`): cardholders, cards, wallets, KYC, card transactions. */
export const issuingAArea = defineArea<IssuingAState>({
  name: 'issuing-a',
  seed: seedState,
  routes: (ctx, state) => [
    ...cardholderRoutes(ctx, state),
    ...cardRoutes(ctx, state),
    ...activationRoutes(ctx, state),
    ...walletRoutes(ctx, state),
    ...kycRoutes(ctx, state),
    ...transactionRoutes(state),
    ...controlRoutes(ctx, state),
  ],
});
