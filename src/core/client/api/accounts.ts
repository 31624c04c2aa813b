import { type CallOptions, HttpClient } from '../http.js';
import { path } from '../path.js';
import {
  AccountBalanceByIdSchema,
  type AccountByIdInput,
  AccountByIdInputSchema,
  AccountDetailSchema,
  AccountListSchema,
  BalancesSchema,
  type CompanyQuery,
  CompanyQuerySchema,
  type ListAccountsQuery,
  ListAccountsQuerySchema,
} from '../schemas/accounts.js';
import { BANKING, family } from './family.js';

/** Receiving accounts and balances (spec "Accounts"). */
export function accountsApi(http: HttpClient) {
  const { send, checked } = family(http, BANKING);
  return {
    /** GET /svc/banking/api/v1/accounts: one page of accounts, optionally of one currency. */
    list: (query: ListAccountsQuery, options?: CallOptions) =>
      checked('accounts.list', 'GET', '/accounts', AccountListSchema, options, {
        query: [ListAccountsQuerySchema, query],
      }),

    /** GET /svc/banking/api/v1/accounts/{accountID}: account detail with bank coordinates and balance. */
    get: async (input: AccountByIdInput, options?: CallOptions) => {
      const operation = 'accounts.get';
      const { accountId, companyCode } = HttpClient.checkRequest(operation, AccountByIdInputSchema, input);
      return send(
        {
          operation,
          method: 'GET',
          route: path`/accounts/${accountId}`,
          query: { companyCode },
          response: AccountDetailSchema,
        },
        options,
      );
    },

    /** GET /svc/banking/api/v1/accounts/balances: one balance per currency (the totals to use). */
    balances: (query: CompanyQuery, options?: CallOptions) =>
      checked('accounts.balances', 'GET', '/accounts/balances', BalancesSchema, options, {
        query: [CompanyQuerySchema, query],
      }),

    /**
     * GET /svc/banking/api/v1/accounts/{accountID}/balance: the balance of the account's currency.
     * Accounts of one currency share it, so never add these up.
     */
    balance: async (input: AccountByIdInput, options?: CallOptions) => {
      const operation = 'accounts.balance';
      const { accountId, companyCode } = HttpClient.checkRequest(operation, AccountByIdInputSchema, input);
      return send(
        {
          operation,
          method: 'GET',
          route: path`/accounts/${accountId}/balance`,
          query: { companyCode },
          response: AccountBalanceByIdSchema,
        },
        options,
      );
    },
  };
}
