import { z } from 'zod';
import { CardholderASchema, CardholderStatusSchema } from '../../core/client/schemas/issuing-a.js';
import { IssuingAckSchema } from '../../core/client/schemas/issuing-common.js';
import { usageError } from '../../core/errors.js';
import { optional } from '../../core/optional.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import {
  addressShape,
  cardholderIdField,
  countryField,
  FAMILY_A,
  nameShape,
  opt,
  optionalShape,
  pageField,
  READ,
  sizeField,
  UPDATE,
  WRITE,
  YMD,
  YMD_MESSAGE,
} from './common.js';
import { ADDRESS, addressOf, missingParts, NAME, nameOf } from './fields.js';

const email = z.email().describe("The cardholder's e-mail.");
const mobileNumber = z
  .string()
  .regex(/^\d+$/, 'must be digits only, without the country code')
  .describe('Digits, without the country code.');
const mobileCountry = countryField('Country of the mobile, ISO 2-letter; the address country by default.');

export const createCardholderA = defineTool({
  name: 'create_cardholder_a',
  title: 'Create cardholder (family A)',
  description: `${FAMILY_A} Creates an individual cardholder (aged 18 to 79; names are screened) and returns its cardholderId; KYC starts PENDING. Cannot be deleted.`,
  toolset: 'issuing_a',
  input: z.object({
    email,
    mobile_number: mobileNumber,
    country_code: opt(mobileCountry),
    date_of_birth: z.string().regex(YMD, YMD_MESSAGE).describe('Date of birth, YYYY-MM-DD.'),
    ...nameShape,
    ...addressShape,
    agent_code: z.string().min(1).optional().describe('Agent code (configured by default).'),
    subagent_code: z.string().min(1).optional().describe('Sub-agent code (configured by default).'),
    created_by: z.string().min(1).optional().describe('Recorded creator; defaults to the acting user.'),
  }),
  output: z.object({ cardholderId: z.string().describe('Id of the new family A cardholder.') }),
  hints: WRITE,
  async run(input, ctx) {
    const name = nameOf(input);
    const address = addressOf(input);
    // The input schema requires every part of both, so these only guard the types.
    if (name === undefined || address === undefined) throw usageError('name and address are required');
    const created = await ctx.client.issuingA.createCardholder(
      {
        agentCode: input.agent_code ?? ctx.defaults.agentCode,
        subagentCode: input.subagent_code ?? ctx.defaults.subagentCode,
      },
      {
        email: input.email,
        mobile_number: input.mobile_number,
        ...optional('country_code', input.country_code?.toUpperCase()),
        individual: { date_of_birth: input.date_of_birth, name, address },
        type: 'INDIVIDUAL',
        created_by: input.created_by ?? ctx.actorName,
      },
      writeOptions(ctx),
    );
    return { cardholderId: created.id };
  },
});

export const listCardholdersA = defineTool({
  name: 'list_cardholders_a',
  title: 'List cardholders (family A)',
  description: `${FAMILY_A} Lists cardholders, newest first, optionally of one status, with totalcount (all matches).`,
  toolset: 'issuing_a',
  input: z.object({
    status: CardholderStatusSchema.optional().describe('Only cardholders in this status.'),
    page_num: pageField('Page, from 1.'),
    page_size: sizeField('Per page (default 10).'),
  }),
  output: z.object({
    totalcount: z.number().int().describe('Number of cardholders matching the filter, over all pages.'),
    cardholders: z.array(CardholderASchema).describe('This page of cardholders.'),
  }),
  hints: READ,
  run: (input, ctx) => ctx.client.issuingA.listCardholders(input, readOptions(ctx)),
});

export const getCardholderA = defineTool({
  name: 'get_cardholder_a',
  title: 'Get cardholder (family A)',
  description: `${FAMILY_A} Shows one cardholder, by cardholderId or by email (exactly one): contact, status, kyc_status, name, address, date of birth.`,
  toolset: 'issuing_a',
  input: z
    .object({
      cardholderId: opt(cardholderIdField),
      email: opt(email),
    })
    .superRefine((input, ctx) => {
      if ((input.cardholderId === undefined) === (input.email === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['cardholderId'],
          message: 'give exactly one of cardholderId and email',
        });
      }
    }),
  output: z.object({ cardholder: CardholderASchema.describe('The cardholder.') }),
  hints: READ,
  async run(input, ctx) {
    const { cardholderId, email } = input;
    // The input schema lets exactly one through; this only narrows the types.
    const query =
      cardholderId !== undefined ? { id: cardholderId } : email !== undefined ? { email } : undefined;
    if (query === undefined) throw usageError('give exactly one of cardholderId and email');
    return { cardholder: await ctx.client.issuingA.getCardholder(query, readOptions(ctx)) };
  },
});

export const updateCardholderA = defineTool({
  name: 'update_cardholder_a',
  title: 'Update cardholder (family A)',
  description: `${FAMILY_A} Changes a cardholder's mobile (with country_code), address (every part but line2) and/or name (first and last at least). Old values are not kept: to undo, update again.`,
  toolset: 'issuing_a',
  input: z
    .object({
      cardholderId: cardholderIdField,
      mobile_number: opt(mobileNumber),
      country_code: opt(countryField('Country of the mobile, ISO 2-letter; give with mobile_number.')),
      ...optionalShape(nameShape),
      ...optionalShape(addressShape),
      updated_by: z.string().min(1).optional().describe('Recorded editor; defaults to the acting user.'),
    })
    .superRefine((input, ctx) => {
      const { cardholderId: _id, updated_by: _by, ...changes } = input;
      if (Object.values(changes).every((value) => value === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['cardholderId'],
          message: 'give at least one field to change: the mobile, the address or the name',
        });
      }
      if ((input.mobile_number === undefined) !== (input.country_code === undefined)) {
        const path = input.mobile_number === undefined ? 'mobile_number' : 'country_code';
        ctx.addIssue({ code: 'custom', path: [path], message: 'mobile_number and country_code go together' });
      }
      for (const issue of [
        ...missingParts(input, ADDRESS.fields, ADDRESS.required, 'address'),
        ...missingParts(input, NAME.fields, NAME.required, 'name'),
      ]) {
        ctx.addIssue({ code: 'custom', ...issue });
      }
    }),
  output: IssuingAckSchema.extend({ cardholderId: z.string().describe('The cardholder that was updated.') }),
  hints: UPDATE,
  async run(input, ctx) {
    const address = addressOf(input);
    const name = nameOf(input);
    const individual = {
      ...optional('address', address),
      ...optional('name', name),
    };
    const ack = await ctx.client.issuingA.updateCardholder(
      { cardholderId: input.cardholderId },
      {
        ...optional('mobile_number', input.mobile_number),
        ...optional('country_code', input.country_code?.toUpperCase()),
        ...(Object.keys(individual).length === 0 ? {} : { individual }),
        updated_by: input.updated_by ?? ctx.actorName,
      },
      writeOptions(ctx),
    );
    return { cardholderId: input.cardholderId, ...ack };
  },
});
