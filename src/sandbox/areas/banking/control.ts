import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { RouteDef } from '../../types.js';
import { parseInput } from '../../validate.js';
import { KNOWN_CURRENCIES } from './money.js';
import type { BankingState } from './state.js';

const RatesBody = z
  .object({
    rates: z.partialRecord(
      z.enum(KNOWN_CURRENCIES as [string, ...string[]], {
        message: `must be one of ${KNOWN_CURRENCIES.join(', ')}`,
      }),
      z.number().positive('must be a positive number of USD per unit'),
    ),
  })
  .strict();

/**
 * `GET /_sandbox/banking/rates`: the mid-market rates in force (USD per unit).
 * `POST /_sandbox/banking/rates {"rates": {"EUR": 1.2}}`: moves mid-market rates (USD per unit), so
 * a fresh quote can differ from an earlier one (re-quoting at execution). A reset restores the seed.
 */
export function controlRoutes(state: () => BankingState): RouteDef[] {
  return [
    {
      operation: 'sandbox.banking.rates.get',
      method: 'GET',
      path: '/_sandbox/banking/rates',
      envelope: 'bare',
      headers: 'none',
      successCode: 200,
      handler: () => ({ raw: { usdPerUnit: { ...state().usdPerUnit } } }),
    },
    {
      operation: 'sandbox.banking.rates',
      method: 'POST',
      path: '/_sandbox/banking/rates',
      envelope: 'bare',
      headers: 'none',
      successCode: 200,
      handler: (req) => {
        const { rates } = parseInput(RatesBody, req.body);
        if (rates.USD !== undefined && rates.USD !== 1)
          throw invalid('rates.USD: USD is the unit, its rate stays 1');
        Object.assign(state().usdPerUnit, rates);
        return { raw: { usdPerUnit: { ...state().usdPerUnit } } };
      },
    },
  ];
}
