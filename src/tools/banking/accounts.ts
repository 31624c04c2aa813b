import { z } from 'zod';
import {
  AccountBalanceByIdSchema,
  AccountDetailSchema,
  AccountListItemSchema,
  BalancesSchema,
} from '../../core/client/schemas/accounts.js';
import { optional } from '../../core/optional.js';
import { defineTool, type ToolContext } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';
import { accountIdField, companyCodeField, currencyCode } from './fields.js';

const READ = { readOnly: true, destructive: false, idempotent: true, openWorld: true } as const;

export const listAccounts = defineTool({
  name: 'list_accounts',
  title: 'List receiving accounts',
  description:
    'Lists the receiving accounts (id, currency, bank coordinates, owner name, rails), a page at a time. accountOwnerName is the name to pay an account in.',
  toolset: 'banking',
  input: z.object({
    companyCode: companyCodeField,
    currency: currencyCode.optional().describe('Only accounts of this currency, e.g. USD.'),
    pageNumber: z.number().int().positive().optional().describe('Page, from 1.'),
    pageSize: z.number().int().positive().optional().describe('Accounts per page.'),
  }),
  output: z.object({
    accounts: z.array(AccountListItemSchema).describe('The accounts of this page.'),
    pageNumber: z.number().describe('Page returned, counting from 1.'),
    pageSize: z.number().describe('Accounts per page.'),
    total: z.number().describe('Number of accounts on all pages.'),
  }),
  hints: READ,
  async run(input, ctx) {
    const page = await ctx.client.accounts.list(
      {
        companyCode: input.companyCode ?? ctx.defaults.companyCode,
        ...optional('currency', input.currency),
        ...optional('pageNumber', input.pageNumber),
        ...optional('pageSize', input.pageSize),
      },
      readOptions(ctx),
    );
    return { accounts: page.items, pageNumber: page.pageNumber, pageSize: page.pageSize, total: page.total };
  },
});

/** One account of the company (the configured one unless named). */
const accountInput = z.object({ accountId: accountIdField, companyCode: companyCodeField });
const accountOf = (input: z.infer<typeof accountInput>, ctx: ToolContext) => ({
  accountId: input.accountId,
  companyCode: input.companyCode ?? ctx.defaults.companyCode,
});

export const getAccount = defineTool({
  name: 'get_account',
  title: 'Get account details',
  description:
    'Shows a receiving account: bank coordinates (account number, IBAN, SWIFT, routing or sort code), owner name, balance. Coordinates may be missing while bankDetailsAvailable is false.',
  toolset: 'banking',
  input: accountInput,
  output: AccountDetailSchema,
  hints: READ,
  run: (input, ctx) => ctx.client.accounts.get(accountOf(input, ctx), readOptions(ctx)),
});

export const getBalances = defineTool({
  name: 'get_balances',
  title: 'Get balances per currency',
  description:
    "Shows each currency's balance (available, frozen, prepaid, margin) and the accounts collecting into it. The accounts of a currency share its balance: never add them up.",
  toolset: 'banking',
  input: z.object({ companyCode: companyCodeField }),
  output: BalancesSchema,
  hints: READ,
  run: (input, ctx) =>
    ctx.client.accounts.balances(
      { companyCode: input.companyCode ?? ctx.defaults.companyCode },
      readOptions(ctx),
    ),
});

export const getAccountBalance = defineTool({
  name: 'get_account_balance',
  title: 'Get account balance',
  description:
    'Shows the balance of the currency an account collects into, shared by every account of that currency: never add up balances of accounts (get_balances gives totals).',
  toolset: 'banking',
  input: accountInput,
  output: AccountBalanceByIdSchema,
  hints: READ,
  run: (input, ctx) => ctx.client.accounts.balance(accountOf(input, ctx), readOptions(ctx)),
});
