import { defineArea } from '../../area.js';
import type { RouteDef } from '../../types.js';
import { accountRoutes } from './accounts.js';
import { authRoutes } from './auth.js';
import { beneficiaryRoutes } from './beneficiaries.js';
import { controlRoutes } from './control.js';
import { conversionRoutes } from './conversions.js';
import { payoutRoutes } from './payouts.js';
import { seedBanking } from './seed.js';
import { settle } from './settle.js';
import type { BankingState } from './state.js';

export const bankingArea = defineArea<BankingState>({
  name: 'banking',
  seed: seedBanking,
  routes: (ctx, state) => {
    const routes: RouteDef[] = [
      ...authRoutes(ctx, state),
      ...accountRoutes(ctx, state),
      ...beneficiaryRoutes(ctx, state),
      ...conversionRoutes(ctx, state),
      ...payoutRoutes(ctx, state),
      ...controlRoutes(state),
    ];
    // Orders progress lazily: every request first brings them up to the sandbox clock.
    return routes.map((route) => ({
      ...route,
      handler: (req) => {
        settle(state(), ctx.clock.nowMs());
        return route.handler(req);
      },
    }));
  },
});
