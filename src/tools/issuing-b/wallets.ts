import { z } from 'zod';
import { WalletSchema, WalletTransactionSchema } from '../../core/client/schemas/issuing-common.js';
import { optional } from '../../core/optional.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { currencyCodeField } from '../shared/codes.js';
import { idString } from '../shared/ids.js';
import { CREATE, cardholderIdField, FAMILY_B, pageField, READ, sizeField, walletInput } from './fields.js';

const currencyCode = currencyCodeField();

const createWalletB = defineTool({
  name: 'create_wallet_b',
  title: 'Create wallet (family B)',
  description: `${FAMILY_B} Opens an empty wallet in one currency for a cardholder; cards are issued on a wallet. Cannot be deleted.`,
  toolset: 'issuing_b',
  input: z.object({
    cardholderId: cardholderIdField,
    currency: currencyCode.describe('Wallet currency, e.g. USD.'),
  }),
  output: z.object({ wallet: WalletSchema }),
  hints: CREATE,
  async run(input, ctx) {
    const wallet = await ctx.client.issuingB.createWallet(
      { cardholderId: input.cardholderId },
      { currency: input.currency },
      writeOptions(ctx),
    );
    return { wallet };
  },
});

const listWalletsB = defineTool({
  name: 'list_wallets_b',
  title: 'List wallets (family B)',
  description: `${FAMILY_B} Lists a cardholder's wallets with currency, balance, limits and status.`,
  toolset: 'issuing_b',
  input: z.object({ cardholderId: cardholderIdField }),
  output: z.object({ wallets: z.array(WalletSchema) }),
  hints: READ,
  async run(input, ctx) {
    const wallets = await ctx.client.issuingB.listWallets(
      { cardholderId: input.cardholderId },
      readOptions(ctx),
    );
    return { wallets };
  },
});

const dateField = (edge: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/, 'must be YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS')
    .optional()
    .describe(`${edge} of the period, inclusive: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS.`);

const getWalletHistoryB = defineTool({
  name: 'get_wallet_history_b',
  title: 'Wallet history (family B)',
  description: `${FAMILY_B} Lists a wallet's transactions (card purchases, fees, loads, P2P transfers), newest first, optionally of a period or one card, a page at a time.`,
  toolset: 'issuing_b',
  input: z.object({
    ...walletInput,
    cardId: idString().optional().describe("Only this card's completed transactions."),
    from_date: dateField('Start'),
    to_date: dateField('End'),
    page: pageField,
    size: sizeField,
  }),
  output: z.object({ transactions: z.array(WalletTransactionSchema) }),
  hints: READ,
  async run(input, ctx) {
    const { cardholderId, walletId, cardId, ...query } = input;
    const transactions = await ctx.client.issuingB.walletHistory(
      { cardholderId, walletId, ...optional('cardId', cardId) },
      query,
      readOptions(ctx),
    );
    return { transactions };
  },
});

export const walletTools = [createWalletB, listWalletsB, getWalletHistoryB];
