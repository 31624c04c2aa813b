import { z } from 'zod';
import { KycViewSchema, RfiDetailsSchema } from '../../core/client/schemas/issuing-common.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { isRfiOpen } from '../shared/rfi.js';
import { cardholderIdField, FAMILY_A, READ } from './common.js';

const input = z.object({ cardholderId: cardholderIdField });

export const getKycA = defineTool({
  name: 'get_kyc_a',
  title: 'KYC status (family A)',
  description: `${FAMILY_A} Shows a cardholder's KYC: kycStatus, complianceStatus, documentType and kycLink, where documents are submitted (empty once complete).`,
  toolset: 'issuing_a',
  input,
  output: z.object({ kyc: KycViewSchema.describe("The cardholder's KYC view.") }),
  hints: READ,
  async run({ cardholderId }, ctx) {
    return { kyc: await ctx.client.issuingA.getKyc({ cardholderHashId: cardholderId }, readOptions(ctx)) };
  },
});

export const getRfiA = defineTool({
  name: 'get_rfi_a',
  title: 'Request for information (family A)',
  description: `${FAMILY_A} Shows what compliance asked a cardholder for (decline codes per area, reason) and whether a request is open. respond_rfi_a gives the submission link.`,
  toolset: 'issuing_a',
  input,
  output: z.object({
    open: z.boolean().describe('True when the cardholder has an open request (a reason or a decline code).'),
    rfi: RfiDetailsSchema.nullable().describe('The RFI details; null when the service reports none.'),
  }),
  hints: READ,
  async run({ cardholderId }, ctx) {
    const rfi =
      (await ctx.client.issuingA.getRfi({ cardholderHashId: cardholderId }, readOptions(ctx))) ?? null;
    return { open: isRfiOpen(rfi), rfi };
  },
});

export const respondRfiA = defineTool({
  name: 'respond_rfi_a',
  title: 'Respond to RFI (family A)',
  description: `${FAMILY_A} Returns the KYC view whose kycLink is where the cardholder submits documents; with an open request for information it also starts the response.`,
  toolset: 'issuing_a',
  input,
  output: z.object({ kyc: KycViewSchema.describe('The KYC view; kycLink is the document submission link.') }),
  // A GET with an effect when an RFI is open (the response is recorded, an event is emitted): not
  // read-only, but a repeat returns the same link without a further effect.
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  async run({ cardholderId }, ctx) {
    return {
      kyc: await ctx.client.issuingA.respondRfi({ cardholderHashId: cardholderId }, writeOptions(ctx)),
    };
  },
});
