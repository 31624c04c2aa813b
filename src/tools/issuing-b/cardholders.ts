import { z } from 'zod';
import { CardholderBSchema } from '../../core/client/schemas/issuing-b.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { createCardholderFields, updateCardholderFields } from './cardholder-fields.js';
import { CREATE, cardholderIdField, FAMILY_B, READ, UPDATE } from './fields.js';

export const createCardholderB = defineTool({
  name: 'create_cardholder_b',
  title: 'Create cardholder (family B)',
  description: `${FAMILY_B} Registers a cardholder and returns its id; next, create_wallet_b. Without kycProviderName, KYC starts pending (get_kyc_b). Cannot be deleted.`,
  toolset: 'issuing_b',
  input: z.object({
    ...createCardholderFields,
    agentCode: z.string().min(1).optional().describe('Agent code (configured by default).'),
    subagentCode: z.string().min(1).optional().describe('Sub-agent code (configured by default).'),
  }),
  output: z.object({ cardholderId: z.string().describe('The new cardholder id.') }),
  hints: CREATE,
  async run(input, ctx) {
    const { agentCode, subagentCode, ...body } = input;
    const created = await ctx.client.issuingB.createCardholder(
      {
        agentCode: agentCode ?? ctx.defaults.agentCode,
        subagentCode: subagentCode ?? ctx.defaults.subagentCode,
      },
      body,
      writeOptions(ctx),
    );
    return { cardholderId: created.id };
  },
});

const getCardholderB = defineTool({
  name: 'get_cardholder_b',
  title: 'Get cardholder (family B)',
  description: `${FAMILY_B} Shows one cardholder: names, contact, addresses, KYC provider, createAt, status ACTIVE or INACTIVE.`,
  toolset: 'issuing_b',
  input: z.object({ cardholderId: cardholderIdField }),
  output: z.object({ cardholder: CardholderBSchema }),
  hints: READ,
  async run(input, ctx) {
    const cardholder = await ctx.client.issuingB.getCardholder(
      { cardholderHashId: input.cardholderId },
      readOptions(ctx),
    );
    return { cardholder };
  },
});

const updateCardholderB = defineTool({
  name: 'update_cardholder_b',
  title: 'Update cardholder (family B)',
  description: `${FAMILY_B} Changes only the cardholder fields given (at least one). Old values are not kept: to undo, update again with them.`,
  toolset: 'issuing_b',
  input: z
    .object({ cardholderId: cardholderIdField, ...updateCardholderFields })
    .refine((input) => Object.values(input).filter((value) => value !== undefined).length > 1, {
      path: ['cardholderId'],
      message: 'give at least one field to change besides cardholderId',
    }),
  output: z.object({ message: z.string().describe("The service's confirmation.") }),
  hints: UPDATE,
  async run(input, ctx) {
    const { cardholderId, ...body } = input;
    const message = await ctx.client.issuingB.updateCardholder(
      { cardholderHashId: cardholderId },
      body,
      writeOptions(ctx),
    );
    return { message };
  },
});

const activateCardholderB = defineTool({
  name: 'activate_cardholder_b',
  title: 'Reactivate cardholder (family B)',
  description: `${FAMILY_B} Reactivates a deactivated cardholder, restoring its wallet and card functions; an active one stays as it is.`,
  toolset: 'issuing_b',
  input: z.object({ cardholderId: cardholderIdField }),
  output: z.object({ status: z.string().describe('The cardholder status afterwards, e.g. ACTIVE.') }),
  hints: UPDATE,
  async run(input, ctx) {
    const result = await ctx.client.issuingB.activateCardholder(
      { cardholderHashId: input.cardholderId },
      writeOptions(ctx),
    );
    return { status: result.status };
  },
});

export const cardholderTools = [createCardholderB, getCardholderB, updateCardholderB, activateCardholderB];
