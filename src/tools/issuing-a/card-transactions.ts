import { z } from 'zod';
import { CardTransactionASchema } from '../../core/client/schemas/issuing-a.js';
import { defineTool } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';
import { cardIdField, FAMILY_A, opt, pageField, READ, sizeField, YMD, YMD_MESSAGE } from './common.js';

const date = (what: string) => opt(z.string().regex(YMD, YMD_MESSAGE).describe(what));

export const listCardTransactionsA = defineTool({
  name: 'list_card_transactions_a',
  title: 'Card transactions (family A)',
  description: `${FAMILY_A} Lists a card's transactions (purchases, refunds, declines with failure_reason), newest first, optionally between two days.`,
  toolset: 'issuing_a',
  input: z
    .object({
      cardId: cardIdField,
      from_created_at: date('First day (with to_created_at).'),
      to_created_at: date('Last day, included (with from_created_at).'),
      page_num: pageField('Page, from 1.'),
      page_size: sizeField('Per page (default 10).'),
    })
    .superRefine((input, ctx) => {
      if ((input.from_created_at === undefined) !== (input.to_created_at === undefined)) {
        const missing = input.from_created_at === undefined ? 'from_created_at' : 'to_created_at';
        ctx.addIssue({
          code: 'custom',
          path: [missing],
          message: 'from_created_at and to_created_at go together',
        });
      }
    }),
  output: z.object({
    has_more: z.boolean().describe('True when later pages hold more transactions.'),
    items: z.array(CardTransactionASchema).describe('This page of card transactions.'),
  }),
  hints: READ,
  async run(input, ctx) {
    const { cardId, ...query } = input;
    const page = await ctx.client.issuingA.listCardTransactions({ cardId }, query, readOptions(ctx));
    return { has_more: page.has_more, items: page.items };
  },
});
