import { defineArea } from '../../area.js';
import { authRoutes } from './auth.js';
import type { BankingState } from './state.js';

export const bankingArea = defineArea<BankingState>({
  name: 'banking',
  seed: (ctx) => ({
    user: {
      userId: ctx.credentials.userId,
      companyCode: ctx.credentials.companyId,
      email: ctx.credentials.userEmail,
      name: 'Demo Treasury',
      businessName: 'Demo Trading Pte. Ltd.',
      entityType: 'COMPANY',
      country: 'SG',
      kycStatus: 'APPROVED',
      status: 'ACTIVE',
      createdAt: '2026-01-05T08:00:00Z',
      updatedAt: '2026-01-05T08:00:00Z',
    },
  }),
  routes: (ctx, state) => [...authRoutes(ctx, state)],
});
