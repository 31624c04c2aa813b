import { z } from 'zod';
import { KycViewSchema, RfiDetailsSchema } from '../../core/client/schemas/issuing-common.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { isRfiOpen } from '../shared/rfi.js';
import { cardholderIdField, FAMILY_B, READ, UPDATE } from './fields.js';

const input = z.object({ cardholderId: cardholderIdField });

const getKycB = defineTool({
  name: 'get_kyc_b',
  title: 'KYC status (family B)',
  description: `${FAMILY_B} Shows a cardholder's KYC and compliance status, document type and, while pending, the document submission link (kycLink).`,
  toolset: 'issuing_b',
  input,
  output: z.object({ kyc: KycViewSchema }),
  hints: READ,
  async run({ cardholderId }, ctx) {
    const kyc = await ctx.client.issuingB.getKyc({ cardholderHashId: cardholderId }, readOptions(ctx));
    return { kyc };
  },
});

const getRfiB = defineTool({
  name: 'get_rfi_b',
  title: 'Open RFI (family B)',
  description: `${FAMILY_B} Shows the open request for information (RFI) on a cardholder's KYC (decline codes per area, reason); open is false when there is none.`,
  toolset: 'issuing_b',
  input,
  output: z.object({
    open: z.boolean().describe('Whether an RFI is open.'),
    rfi: RfiDetailsSchema.nullable().describe('The RFI; null when none is open.'),
  }),
  hints: READ,
  async run({ cardholderId }, ctx) {
    const rfi = await ctx.client.issuingB.getRfi({ cardholderHashId: cardholderId }, readOptions(ctx));
    // The service answers "no RFI" as one element with empty lists and reason (or as no element):
    // not an open request, so `rfi` is null then, as described.
    const open = isRfiOpen(rfi);
    return { open, rfi: open ? (rfi ?? null) : null };
  },
});

const respondRfiB = defineTool({
  name: 'respond_rfi_b',
  title: 'Respond to RFI (family B)',
  description: `${FAMILY_B} Returns the KYC view with a fresh kycLink where the cardholder submits documents; an open RFI is also marked responded.`,
  toolset: 'issuing_b',
  input,
  output: z.object({ kyc: KycViewSchema }),
  // A GET with an effect when an RFI is open: the service records the response (and emits
  // kyc_rfi_responded the first time).
  hints: UPDATE,
  async run({ cardholderId }, ctx) {
    const kyc = await ctx.client.issuingB.respondRfi({ cardholderHashId: cardholderId }, writeOptions(ctx));
    return { kyc };
  },
});

export const kycTools = [getKycB, getRfiB, respondRfiB];
