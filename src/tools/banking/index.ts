import type { AnyTool } from '../../core/tool.js';
import { getAccount, getAccountBalance, getBalances, listAccounts } from './accounts.js';
import { checkCredentials, getUser } from './auth.js';
import { createBeneficiary, getBeneficiarySchema, listBeneficiaryOptions } from './beneficiaries.js';
import { getConversion, quoteConversion } from './conversions.js';
import { getPayout, quotePayout } from './payouts.js';

/**
 * Banking tools (toolset `banking`). The money movers `create_payout` and `create_conversion`
 * live in `src/tools/money`, with their approval and re-quote logic.
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
