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

const PREFIX = '/svc/banking/api/v1/accounts';

/** Receiving accounts and balances (spec "Accounts"). */
export function accountsApi(http: HttpClient) {
  return {
    /** GET /svc/banking/api/v1/accounts: one page of accounts, optionally of one currency. */
    list: async (query: ListAccountsQuery, options?: CallOptions) => {
      const q = HttpClient.checkRequest('accounts.list', ListAccountsQuerySchema, query);
      return http.call(
        {
          operation: 'accounts.list',
          method: 'GET',
          path: PREFIX,
          headerSet: 'HB',
          query: q,
          envelope: 'banking',
          response: AccountListSchema,
        },
        options,
      );
    },

    /** GET /svc/banking/api/v1/accounts/{accountID}: account detail with bank coordinates and balance. */
    get: async (input: AccountByIdInput, options?: CallOptions) => {
      const { accountId, companyCode } = HttpClient.checkRequest(
        'accounts.get',
        AccountByIdInputSchema,
        input,
      );
      return http.call(
        {
          operation: 'accounts.get',
          method: 'GET',
          path: path`/svc/banking/api/v1/accounts/${accountId}`,
          headerSet: 'HB',
          query: { companyCode },
          envelope: 'banking',
          response: AccountDetailSchema,
        },
        options,
      );
    },

    /** GET /svc/banking/api/v1/accounts/balances: one balance per currency (the totals to use). */
    balances: async (query: CompanyQuery, options?: CallOptions) => {
      const q = HttpClient.checkRequest('accounts.balances', CompanyQuerySchema, query);
      return http.call(
        {
          operation: 'accounts.balances',
          method: 'GET',
          path: `${PREFIX}/balances`,
          headerSet: 'HB',
          query: q,
          envelope: 'banking',
          response: BalancesSchema,
        },
        options,
      );
    },

    /**
     * GET /svc/banking/api/v1/accounts/{accountID}/balance: the balance of the account's currency.
     * Accounts of one currency share it, so never add these up.
     */
    balance: async (input: AccountByIdInput, options?: CallOptions) => {
      const { accountId, companyCode } = HttpClient.checkRequest(
        'accounts.balance',
        AccountByIdInputSchema,
        input,
      );
      return http.call(
        {
          operation: 'accounts.balance',
          method: 'GET',
          path: path`/svc/banking/api/v1/accounts/${accountId}/balance`,
          headerSet: 'HB',
          query: { companyCode },
          envelope: 'banking',
          response: AccountBalanceByIdSchema,
        },
        options,
      );
    },
  };
}
