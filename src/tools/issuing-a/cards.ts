import { z } from 'zod';
import { IssuingAckSchema } from '../../core/client/schemas/issuing-common.js';
import { defineTool } from '../../core/tool.js';
import { writeOptions } from '../shared/call-options.js';
import { cardholderIdField, cardIdField, currencyField, FAMILY_A, opt, WRITE } from './common.js';

const createdBy = opt(z.string().min(1).describe('Recorded creator; defaults to the acting user.'));
const pin = z
  .string()
  .regex(/^\d+$/, 'must be digits only')
  .describe('The PIN to set, digits only (secret: never logged or shown).');

export const createCardA = defineTool({
  name: 'create_card_a',
  title: 'Create virtual card (family A)',
  description: `${FAMILY_A} Issues a virtual card to a cardholder, active at once, and returns its cardId. Cannot be undone here (family A has no card status tool).`,
  toolset: 'issuing_a',
  input: z.object({
    cardholderId: cardholderIdField,
    currency: currencyField('Currency of the card and its limits, e.g. USD.'),
    per_transaction_limit: opt(
      z
        .number()
        .positive()
        .describe("Most one transaction may spend (e.g. 500); else the program's default limits."),
    ),
    request_id: opt(
      z
        .string()
        .min(1)
        .describe("Recorded with the card (not an idempotency key); the call's request id by default."),
    ),
    created_by: createdBy,
  }),
  output: z.object({ cardId: z.string().describe('Id of the new virtual card.') }),
  hints: WRITE,
  async run(input, ctx) {
    const limit = input.per_transaction_limit;
    const created = await ctx.client.issuingA.createCard(
      {
        card_type: 'VIRTUAL',
        card_holder_id: input.cardholderId,
        created_by: input.created_by ?? ctx.actorName,
        // The body's request_id is only recorded with the card. What makes a re-sent execution return
        // the same card instead of issuing a second one is the x-request-id of writeOptions.
        request_id: input.request_id ?? ctx.requestId,
        program: { purpose: 'COMMERCIAL' },
        authorization_controls: {
          allowed_transaction_count: 'MULTIPLE',
          transaction_limits: {
            currency: input.currency,
            ...(limit === undefined
              ? {}
              : { limits: [{ amount: limit, interval: 'PER_TRANSACTION' as const }] }),
          },
        },
        is_personalized: false,
      },
      writeOptions(ctx),
    );
    return { cardId: created.id };
  },
});

export const assignCardA = defineTool({
  name: 'assign_card_a',
  title: 'Assign physical card (family A)',
  description: `${FAMILY_A} Assigns a physical prepaid card from inventory to a cardholder by its full card number (secret). card_currency must be the card's currency. The card stays inactive until activate_card_a. Returns the new cardId; cannot be undone.`,
  toolset: 'issuing_a',
  input: z.object({
    cardholderId: cardholderIdField,
    card_number: z
      .string()
      .regex(/^\d{12,19}$/, 'must be the full card number, 12 to 19 digits')
      .describe('Full number of the physical card, digits only (secret: never logged or shown).'),
    card_currency: currencyField('Currency of the physical card, e.g. USD.'),
    card_mode: z
      .enum(['SINGLE'])
      .default('SINGLE')
      .describe('SINGLE = prepaid, loaded with funds before use (the only mode).'),
    created_by: createdBy,
  }),
  output: z.object({
    cardId: z.string().describe('Id of the assigned card; activate it with activate_card_a.'),
  }),
  hints: WRITE,
  secretFields: ['card_number'],
  secretInput: true,
  async run(input, ctx) {
    const assigned = await ctx.client.issuingA.assignCard(
      {
        cardholder_id: input.cardholderId,
        card_number: input.card_number,
        card_currency: input.card_currency,
        card_mode: input.card_mode,
        createdBy: input.created_by ?? ctx.actorName,
      },
      writeOptions(ctx),
    );
    return { cardId: assigned.card_id };
  },
});

const ackOutput = IssuingAckSchema.extend({ cardId: z.string().describe('The card acted on.') });

export const activateCardA = defineTool({
  name: 'activate_card_a',
  title: 'Activate physical card (family A)',
  description: `${FAMILY_A} Activates an assigned physical card with the activation code delivered with it, and sets its first PIN (both secret). Only for cards not yet active; there is no deactivation in family A. Not offered in Slack.`,
  toolset: 'issuing_a',
  input: z.object({
    cardId: cardIdField,
    activation_code: z
      .string()
      .trim()
      .min(1)
      .describe('Activation code delivered with the card (secret: never logged or shown).'),
    pin,
  }),
  output: ackOutput,
  hints: WRITE,
  secretFields: ['activation_code', 'pin'],
  secretInput: true,
  async run(input, ctx) {
    const ack = await ctx.client.issuingA.activateCard(
      { cardId: input.cardId },
      { activation_code: input.activation_code, pin: input.pin },
      writeOptions(ctx),
    );
    return { cardId: input.cardId, ...ack };
  },
});

export const resetPinA = defineTool({
  name: 'reset_pin_a',
  title: 'Reset card PIN (family A)',
  description: `${FAMILY_A} Sets a new PIN (secret) on an activated physical card; the old PIN stops working. Virtual cards have no PIN. Not offered in Slack.`,
  toolset: 'issuing_a',
  input: z.object({ cardId: cardIdField, pin }),
  output: ackOutput,
  hints: WRITE,
  secretFields: ['pin'],
  secretInput: true,
  async run(input, ctx) {
    const ack = await ctx.client.issuingA.resetPin(
      { cardId: input.cardId },
      { pin: input.pin },
      writeOptions(ctx),
    );
    return { cardId: input.cardId, ...ack };
  },
});
