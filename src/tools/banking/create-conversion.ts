import { z } from 'zod';
import { FxQuoteSchema } from '../../core/client/schemas/conversions.js';
import { defineTool } from '../../core/tool.js';
import { minorUnitsIssue } from './balance.js';
import { conversionMovement } from './conversions.js';
import { amountField, companyCodeField, currencyCode, sideField } from './fields.js';
import { createdOutput, movementHooks } from './quoted-movement.js';

const input = z
  .object({
    sourceAssetCode: currencyCode.describe('Currency sold (debited).'),
    targetAssetCode: currencyCode.describe('Currency bought (credited).'),
    amount: amountField,
    side: sideField,
    clientReference: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('Your own reference, returned as externalReference.'),
    companyCode: companyCodeField,
  })
  .superRefine((value, ctx) => {
    const issue = minorUnitsIssue(
      value.amount,
      value.side === 'SOURCE' ? value.sourceAssetCode : value.targetAssetCode,
    );
    if (issue !== undefined) ctx.addIssue(issue);
  });

const output = createdOutput(
  { key: 'conversionId', text: 'Conversion id, for get_conversion.' },
  'EXECUTING right after creation.',
  FxQuoteSchema,
  'conversion',
);

export const createConversion = defineTool({
  name: 'create_conversion',
  title: 'Convert currency',
  description:
    "Converts between two of the company's currencies, only after approvers accept its quote (valid 75 s). At execution a fresh quote is used only if the amount sold is within the approved bound, else it goes back to them.",
  toolset: 'banking',
  input,
  output,
  // Executed at a rate that cannot be undone without a second conversion at another rate.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  // For the policy's thresholds: the amount in the currency `side` names (see create_payout).
  money: (i) => ({ amount: i.amount, currency: i.side === 'SOURCE' ? i.sourceAssetCode : i.targetAssetCode }),
  ...movementHooks(
    conversionMovement,
    (conversion, quote): z.infer<typeof output> => ({
      conversionId: conversion.conversionId,
      externalReference: conversion.externalReference,
      status: conversion.status,
      quote,
    }),
    (out) => out.conversionId,
  ),
});
