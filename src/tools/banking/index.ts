import type { AnyTool } from '../../core/tool.js';
import { getAccount, getAccountBalance, getBalances, listAccounts } from './accounts.js';
import { checkCredentials, getUser } from './auth.js';
import { createBeneficiary, getBeneficiarySchema, listBeneficiaryOptions } from './beneficiaries.js';
import { getConversion, quoteConversion } from './conversions.js';
import { createConversion } from './create-conversion.js';
import { createPayout } from './create-payout.js';
import { getPayout, quotePayout } from './payouts.js';

/**
 * Banking tools (toolset `banking`). Payouts and conversions are quoted money movements, each
 * defined once (`quoted-movement.ts`): their quote_*, create_* and get_* tools are made from it.
 */
export const bankingTools: readonly AnyTool[] = [
  checkCredentials,
  getUser,
  listAccounts,
  getAccount,
  getBalances,
  getAccountBalance,
  listBeneficiaryOptions,
  getBeneficiarySchema,
  createBeneficiary,
  quoteConversion,
  getConversion,
  quotePayout,
  getPayout,
];

/**
 * The money movers: they need approval under the default policy, show a quote to the approvers,
 * and re-quote at execution within the approved bound (DESIGN decision 5).
 */
export const moneyTools: readonly AnyTool[] = [createPayout, createConversion];
