import { z } from 'zod';
import {
  CardDetailsSchema,
  CardListSchema,
  CardStatusSchema,
  CardTokenSchema,
} from '../../core/client/schemas/issuing-b.js';
import { optional } from '../../core/optional.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { cardStatusPreview, cardWords } from './card-preview.js';
import {
  CREATE,
  cardInput,
  cardRef,
  FAMILY_B,
  pageField,
  READ,
  SECRET_LINK,
  sizeField,
  UPDATE,
  walletInput,
} from './fields.js';

const cardIdOutput = z.object({ cardId: z.string().describe('The card id, for the other card tools.') });

const createCardB = defineTool({
  name: 'create_card_b',
  title: 'Create virtual card (family B)',
  description: `${FAMILY_B} Issues a virtual card on a wallet: active at once, enrolled in 3DS by e-mail, default spend limits, no PIN. Stop it with update_card_status_b.`,
  toolset: 'issuing_b',
  input: z.object({
    ...walletInput,
    is_primary: z
      .boolean()
      .optional()
      .describe("Make it the wallet's primary card (the others stop being primary)."),
  }),
  output: cardIdOutput,
  hints: CREATE,
  async run(input, ctx) {
    const { cardholderId, walletId, is_primary } = input;
    const card = await ctx.client.issuingB.createCard(
      { cardholderId, walletId },
      // The spec sends the flag as the string 'true' or 'false'.
      { card_type: 'virtual', ...(is_primary === undefined ? {} : { is_primary: `${is_primary}` as const }) },
      writeOptions(ctx),
    );
    return { cardId: card.cardId };
  },
});

const assignCardB = defineTool({
  name: 'assign_card_b',
  title: 'Assign physical card (family B)',
  description: `${FAMILY_B} Links a physical card from inventory to a cardholder's wallet using its last four digits and the assignment code delivered with it. The card becomes active, enrolled in 3DS, with default limits. The code is secret: not offered in Slack.`,
  toolset: 'issuing_b',
  input: z.object({
    ...walletInput,
    last_four_digit: z
      .string()
      .regex(/^\d{4}$/, 'must be exactly 4 digits')
      .describe('Last four digits of the physical card number.'),
    code: z.string().min(1).describe('Assignment code delivered with the card (secret).'),
  }),
  output: cardIdOutput,
  hints: CREATE,
  secretFields: ['code'],
  // The assignment code works like an activation code: typed into Slack it would stay in the
  // workspace's message history (DESIGN decision 7).
  secretInput: true,
  async run(input, ctx) {
    const { cardholderId, walletId, last_four_digit, code } = input;
    const card = await ctx.client.issuingB.assignCard(
      { cardholderId, walletId },
      { last_four_digit, code },
      writeOptions(ctx),
    );
    return { cardId: card.cardId };
  },
});

const listCardsB = defineTool({
  name: 'list_cards_b',
  title: 'List cards (family B)',
  description: `${FAMILY_B} Lists a wallet's virtual and physical cards (id, last four digits, type, status, created date), a page at a time.`,
  toolset: 'issuing_b',
  input: z.object({ ...walletInput, page: pageField, size: sizeField }),
  output: CardListSchema,
  hints: READ,
  run: ({ cardholderId, walletId, page, size }, ctx) =>
    ctx.client.issuingB.listCards(
      { cardholderId, walletId },
      { ...optional('page', page), ...optional('size', size) },
      readOptions(ctx),
    ),
});

const activateCardB = defineTool({
  name: 'activate_card_b',
  title: 'Activate card (family B)',
  description: `${FAMILY_B} Activates an INACTIVE card; any other status is refused (a LOCKED card is unlocked with update_card_status_b).`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output: z.object({ status: z.string().describe('The card status afterwards (ACTIVE).') }),
  hints: UPDATE,
  async run(input, ctx) {
    const result = await ctx.client.issuingB.activateCard(cardRef(input), writeOptions(ctx));
    return { status: result.status };
  },
});

const getCardDetailsB = defineTool({
  name: 'get_card_details_b',
  title: 'Card details (family B)',
  description: `${FAMILY_B} Shows a card, its number masked: type, status, primary flag, PIN set, delivery and printing state, PURCHASE spend limits.`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output: z.object({ card: CardDetailsSchema }),
  hints: READ,
  async run(input, ctx) {
    const card = await ctx.client.issuingB.getCardDetails(cardRef(input), readOptions(ctx));
    return { card };
  },
});

const getCardDetailsLinkB = defineTool({
  name: 'get_card_details_link_b',
  title: 'Card details link (family B)',
  description: `${FAMILY_B} Returns a fresh secure link (url) revealing the FULL card number, expiry, CVV and name. Show it only to the person who asked, never in a shared channel. Changes nothing.`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output: CardTokenSchema,
  hints: SECRET_LINK,
  secretFields: ['url'],
  run: (input, ctx) => ctx.client.issuingB.getCardToken(cardRef(input), readOptions(ctx)),
});

export const updateCardStatusB = defineTool({
  name: 'update_card_status_b',
  title: 'Change card status (family B)',
  description: `${FAMILY_B} Sets a card's status. LOCKED blocks it until set ACTIVE again; LOST, STOLEN and BLOCKED are PERMANENT (the card never works again) and need approval.`,
  toolset: 'issuing_b',
  input: z.object({
    ...cardInput,
    status: CardStatusSchema.describe(
      'ACTIVE only from LOCKED; LOCKED is reversible; LOST, STOLEN, BLOCKED are permanent.',
    ),
  }),
  output: z.object({
    status: z.string().describe('The card status afterwards.'),
    card: z
      .object({
        last4: z.string().optional(),
        type: z.string().optional(),
        holder: z.string().optional(),
      })
      .optional()
      .describe('Which card: last four, type, holder.'),
  }),
  // Permanent targets destroy the card; the policy asks for approval on exactly those.
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  preview: (input, ctx) => cardStatusPreview(input, ctx),
  async run(input, ctx) {
    const result = await ctx.client.issuingB.updateCardStatus(
      cardRef(input),
      { status: input.status },
      writeOptions(ctx),
    );
    // Which card it was, so the answer can say "••••4821 of Alice Tan"; the change is done
    // whatever these reads say, so a failed read leaves the card out rather than failing the call.
    const card = await cardWords(input, ctx).catch(() => undefined);
    return { status: result.status, ...optional('card', card) };
  },
});

export const cardTools = [
  createCardB,
  assignCardB,
  listCardsB,
  activateCardB,
  getCardDetailsB,
  getCardDetailsLinkB,
  updateCardStatusB,
];
