import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { RouteDef } from '../../types.js';
import { parseInput } from '../../validate.js';
import { assertChangeable, cardRequest } from './identity.js';
import { LIMIT_CURRENCY } from './limits.js';
import { CARD, hb2 } from './route.js';
import { type IssuingBState, LIMIT_PERIODS, LIMIT_TYPES } from './state.js';

const required = (rule: string) => (iss: { input: unknown }) =>
  iss.input === undefined ? 'is required' : rule;

const LimitBody = z.object({
  amount_limit_period: z.enum(LIMIT_PERIODS, {
    error: required(`must be one of ${LIMIT_PERIODS.join(', ')}`),
  }),
  amount_limit: z
    .number({ error: required('must be an integer greater than 0') })
    .int('must be an integer greater than 0')
    .positive('must be an integer greater than 0'),
  transaction_type: z.enum(LIMIT_TYPES, { error: required(`must be one of ${LIMIT_TYPES.join(', ')}`) }),
});

/** Periods the spec allows for cash withdrawals. */
const ATM_PERIODS: ReadonlySet<string> = new Set(['DAY', 'MONTH']);

export function spendLimitRoutes(state: () => IssuingBState): RouteDef[] {
  return [
    hb2({
      operation: 'issuingB.getSpendLimits',
      method: 'GET',
      path: '/card/limit',
      requiredHeaders: CARD,
      handler: (req) => ({ data: cardRequest(req, state()).card.limits.map((l) => ({ ...l })) }),
    }),
    hb2({
      operation: 'issuingB.updateSpendLimit',
      method: 'PATCH',
      path: '/card/limit',
      requiredHeaders: CARD,
      handler: (req) => {
        const { card } = cardRequest(req, state());
        const body = parseInput(LimitBody, req.body);
        if (body.transaction_type === 'ATM_CASH_WITHDRAWAL' && !ATM_PERIODS.has(body.amount_limit_period)) {
          throw invalid(
            `amount_limit_period: ATM_CASH_WITHDRAWAL limits support only DAY and MONTH periods (got ${body.amount_limit_period})`,
          );
        }
        assertChangeable(card);
        const item = {
          amount_limit: body.amount_limit,
          active: true,
          amount_limit_period: body.amount_limit_period,
          transaction_type: body.transaction_type,
          currency_code: LIMIT_CURRENCY,
        };
        const index = card.limits.findIndex(
          (l) =>
            l.transaction_type === item.transaction_type &&
            l.amount_limit_period === item.amount_limit_period,
        );
        if (index < 0) card.limits.push(item);
        else card.limits[index] = item;
        return { message: 'Card spend limit updated successfully', data: [] };
      },
    }),
  ];
}
