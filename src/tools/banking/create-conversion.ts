import { z } from 'zod';
import { FxQuoteSchema } from '../../core/client/schemas/conversions.js';
import { amountFitsCurrency } from './balance.js';
import { conversionMovement } from './conversions.js';
import { amountField, clientReferenceField, companyCodeField, currencyCode, sideField } from './fields.js';
import { createTool } from './quoted-movement.js';

/** The currency `amount` is in: the one sold with SOURCE, the one bought with TARGET. */
const amountCurrency = (i: { side: string; sourceAssetCode: string; targetAssetCode: string }) =>
  i.side === 'SOURCE' ? i.sourceAssetCode : i.targetAssetCode;

const input = z
  .object({
    sourceAssetCode: currencyCode.describe('Currency sold (debited).'),
    targetAssetCode: currencyCode.describe('Currency bought (credited).'),
    amount: amountField,
    side: sideField,
    clientReference: clientReferenceField,
    companyCode: companyCodeField,
  })
  .superRefine(amountFitsCurrency(amountCurrency));

export const createConversion = createTool(
  {
    name: 'create_conversion',
    title: 'Convert currency',
    description:
      "Converts between two of the company's currencies, only after approvers accept its quote (valid 75 s). At execution a fresh quote is used only if the amount sold is within the approved bound, else it goes back to them.",
    input,
    money: (i) => ({
      amount: i.amount,
      currency: i.side === 'SOURCE' ? i.sourceAssetCode : i.targetAssetCode,
    }),
  },
  conversionMovement,
  {
    key: 'conversionId',
    text: 'Conversion id, for get_conversion.',
    status: 'EXECUTING right after creation.',
    quote: FxQuoteSchema,
  },
);
