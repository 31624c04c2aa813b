import { defineArea } from '../../area.js';
import { cardSettingRoutes } from './card-settings.js';
import { cardholderRoutes } from './cardholders.js';
import { cardRoutes } from './cards.js';
import { kycRoutes } from './kyc.js';
import { pinRoutes } from './pin.js';
import { seedIssuingB } from './seed.js';
import { spendLimitRoutes } from './spend-limits.js';
import type { IssuingBState } from './state.js';
import { threeDsRoutes } from './three-ds.js';
import { walletRoutes } from './wallets.js';

/** Issuing family B (`/issuing/api/{version}/...`, header set HB2): 29 operations plus control routes. */
export const issuingBArea = defineArea<IssuingBState>({
  name: 'issuing-b',
  seed: seedIssuingB,
  routes: (ctx, state) => [
    ...cardholderRoutes(ctx, state),
    ...walletRoutes(ctx, state),
    ...cardRoutes(ctx, state),
    ...cardSettingRoutes(ctx, state),
    ...pinRoutes(state),
    ...threeDsRoutes(ctx, state),
    ...spendLimitRoutes(state),
    ...kycRoutes(ctx, state),
  ],
});
