import { z } from 'zod';
import {
  CardConfigurationSchema,
  OtpDeliveryMethodSchema,
  SpendLimitSchema,
  ThreeDsEnrollmentSchema,
  UpdateSpendLimitBodySchema,
} from '../../core/client/schemas/issuing-b.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { cardInput, cardRef, FAMILY_B, READ, UPDATE } from './fields.js';

const cardPresentField = z
  .boolean()
  .describe('true: works at point-of-sale terminals too; false: online only.');

const getCardConfigurationB = defineTool({
  name: 'get_card_configuration_b',
  title: 'Card configuration (family B)',
  description: `${FAMILY_B} Tells whether card-present (point-of-sale) transactions are enabled for a card.`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output: CardConfigurationSchema,
  hints: READ,
  run: (input, ctx) => ctx.client.issuingB.getCardConfiguration(cardRef(input), readOptions(ctx)),
});

const updateCardConfigurationB = defineTool({
  name: 'update_card_configuration_b',
  title: 'Change card configuration (family B)',
  description: `${FAMILY_B} Enables or disables a card's card-present (point-of-sale) transactions; online use is unaffected. Reversible.`,
  toolset: 'issuing_b',
  input: z.object({ ...cardInput, card_present_transaction_enabled: cardPresentField }),
  output: CardConfigurationSchema,
  hints: UPDATE,
  run: (input, ctx) =>
    ctx.client.issuingB.updateCardConfiguration(
      cardRef(input),
      { card_present_transaction_enabled: input.card_present_transaction_enabled },
      writeOptions(ctx),
    ),
});

const otpField = OtpDeliveryMethodSchema.describe('OTPs go to the registered e-mail or mobile.');

const enroll3dsB = defineTool({
  name: 'enroll_3ds_b',
  title: 'Enroll card in 3D Secure (family B)',
  description: `${FAMILY_B} Enrolls a card in 3D Secure: online payments are confirmed with a one-time password. New cards are already enrolled by e-mail. Undo with unenroll_3ds_b.`,
  toolset: 'issuing_b',
  input: z.object({ ...cardInput, otp_delivery_method: otpField }),
  output: z.object({
    enrolled: z.literal(true).describe('The card is enrolled.'),
    otp_delivery_method: z.string().describe('The delivery method requested.'),
  }),
  hints: UPDATE,
  async run(input, ctx) {
    await ctx.client.issuingB.enroll3ds(
      cardRef(input),
      { otp_delivery_method: input.otp_delivery_method },
      writeOptions(ctx),
    );
    return { enrolled: true as const, otp_delivery_method: input.otp_delivery_method };
  },
});

const get3dsB = defineTool({
  name: 'get_3ds_b',
  title: '3D Secure enrollment (family B)',
  description: `${FAMILY_B} Shows a card's 3D Secure enrollment: status, OTP method and destination in full (e-mail, or +<country code><mobile>).`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output: z.object({
    enrolled: z.boolean().describe('Whether the card is enrolled in 3D Secure.'),
    enrollment: ThreeDsEnrollmentSchema.nullable().describe('The enrollment; null when not enrolled.'),
  }),
  hints: READ,
  async run(input, ctx) {
    const enrollment = await ctx.client.issuingB.get3ds(cardRef(input), readOptions(ctx));
    return { enrolled: enrollment !== undefined, enrollment: enrollment ?? null };
  },
});

const update3dsB = defineTool({
  name: 'update_3ds_b',
  title: 'Change 3D Secure method (family B)',
  description: `${FAMILY_B} Changes how an enrolled card's 3D Secure one-time passwords are delivered; refused for a card not enrolled. Reversible.`,
  toolset: 'issuing_b',
  input: z.object({ ...cardInput, otp_delivery_method: otpField }),
  output: z.object({ otp_delivery_method: z.string().describe('The delivery method now requested.') }),
  hints: UPDATE,
  async run(input, ctx) {
    await ctx.client.issuingB.update3ds(
      cardRef(input),
      { otp_delivery_method: input.otp_delivery_method },
      writeOptions(ctx),
    );
    return { otp_delivery_method: input.otp_delivery_method };
  },
});

const unenroll3dsB = defineTool({
  name: 'unenroll_3ds_b',
  title: 'Unenroll card from 3D Secure (family B)',
  description: `${FAMILY_B} Removes a card from 3D Secure: no more one-time passwords for online payments, a weaker fraud protection. Re-enroll with enroll_3ds_b.`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output: z.object({ enrolled: z.literal(false).describe('The card is no longer enrolled.') }),
  // Removes a fraud control; flagged destructive so assistants and people confirm it.
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  async run(input, ctx) {
    await ctx.client.issuingB.unenroll3ds(cardRef(input), writeOptions(ctx));
    return { enrolled: false as const };
  },
});

const getSpendLimitsB = defineTool({
  name: 'get_spend_limits_b',
  title: 'Card spend limits (family B)',
  description: `${FAMILY_B} Lists a card's spend limits per transaction type and period: amount, currency, whether active.`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output: z.object({ limits: z.array(SpendLimitSchema) }),
  hints: READ,
  async run(input, ctx) {
    const limits = await ctx.client.issuingB.getSpendLimits(cardRef(input), readOptions(ctx));
    return { limits };
  },
});

const limit = UpdateSpendLimitBodySchema.shape;

const updateSpendLimitB = defineTool({
  name: 'update_spend_limit_b',
  title: 'Change card spend limit (family B)',
  description: `${FAMILY_B} Sets one spend limit of a card, replacing the current one for that transaction type and period.`,
  toolset: 'issuing_b',
  input: z.object({
    ...cardInput,
    transaction_type: limit.transaction_type.describe('PURCHASE or ATM_CASH_WITHDRAWAL.'),
    amount_limit_period: limit.amount_limit_period.describe('ATM_CASH_WITHDRAWAL: DAY or MONTH only.'),
    amount_limit: z.number().int().positive().describe('Whole currency units (500 = 500 USD).'),
  }),
  output: z.object({
    transaction_type: z.string().describe('Transaction type of the limit set.'),
    amount_limit_period: z.string().describe('Period of the limit set.'),
    amount_limit: z.number().describe('The limit now in force, in currency units.'),
  }),
  hints: UPDATE,
  async run(input, ctx) {
    const body = {
      amount_limit_period: input.amount_limit_period,
      amount_limit: input.amount_limit,
      transaction_type: input.transaction_type,
    };
    await ctx.client.issuingB.updateSpendLimit(cardRef(input), body, writeOptions(ctx));
    return body;
  },
});

export const cardControlTools = [
  getCardConfigurationB,
  updateCardConfigurationB,
  enroll3dsB,
  get3dsB,
  update3dsB,
  unenroll3dsB,
  getSpendLimitsB,
  updateSpendLimitB,
];
