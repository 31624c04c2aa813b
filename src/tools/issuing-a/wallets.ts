import { z } from 'zod';
import { WalletSchema, WalletTransactionSchema } from '../../core/client/schemas/issuing-common.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import {
  cardholderIdField,
  currencyField,
  FAMILY_A,
  opt,
  pageField,
  READ,
  sizeField,
  WRITE,
  walletIdField,
} from './common.js';

export const createWalletA = defineTool({
  name: 'create_wallet_a',
  title: 'Create wallet (family A)',
  description: `${FAMILY_A} Opens a wallet in one currency for a cardholder (who may hold several), with a zero balance. Cannot be deleted.`,
  toolset: 'issuing_a',
  input: z.object({
    cardholderId: cardholderIdField,
    currency: currencyField('Currency of the wallet, e.g. USD.'),
  }),
  output: z.object({ wallet: WalletSchema.describe('The new wallet; amounts in currency units.') }),
  hints: WRITE,
  async run(input, ctx) {
    const wallet = await ctx.client.issuingA.createWallet(
      { cardholderId: input.cardholderId },
      { currency: input.currency },
      writeOptions(ctx),
    );
    return { wallet };
  },
});

export const listWalletsA = defineTool({
  name: 'list_wallets_a',
  title: 'List wallets (family A)',
  description: `${FAMILY_A} Lists a cardholder's wallets with balance, limits and status.`,
  toolset: 'issuing_a',
  input: z.object({ cardholderId: cardholderIdField }),
  output: z.object({ wallets: z.array(WalletSchema).describe("The cardholder's wallets.") }),
  hints: READ,
  async run(input, ctx) {
    return {
      wallets: await ctx.client.issuingA.listWallets({ cardholderId: input.cardholderId }, readOptions(ctx)),
    };
  },
});

const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/;
const dateOrTime = (what: string) =>
  opt(
    z
      .string()
      .regex(DATE_OR_TIME, 'must be YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS')
      .describe(`${what}, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS.`),
  );

export const getWalletHistoryA = defineTool({
  name: 'get_wallet_history_a',
  title: 'Wallet history (family A)',
  description: `${FAMILY_A} Lists a wallet's transactions (loads, card spending, fees, transfers), newest first, optionally between two dates, a page at a time.`,
  toolset: 'issuing_a',
  input: z.object({
    cardholderId: cardholderIdField,
    walletId: walletIdField,
    from_date: dateOrTime('Earliest transaction time'),
    to_date: dateOrTime('Latest transaction time (a bare date includes that whole day)'),
    page: pageField('Page, from 1.'),
    size: sizeField('Per page (default 10).'),
  }),
  output: z.object({
    transactions: z.array(WalletTransactionSchema).describe('This page of wallet transactions.'),
  }),
  hints: READ,
  async run(input, ctx) {
    const { cardholderId, walletId, ...query } = input;
    const transactions = await ctx.client.issuingA.walletHistory(
      { cardholderId, walletId },
      query,
      readOptions(ctx),
    );
    return { transactions };
  },
});
