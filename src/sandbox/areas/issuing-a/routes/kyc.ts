import type { RouteDef, SandboxContext } from '../../../types.js';
import { isoUtc } from '../../../validate.js';
import { kycLinkFor, rfiLinkFor } from '../defaults.js';
import { hashHeaderCardholder, PREFIX } from '../lookup.js';
import type { CardholderRecord, IssuingAState } from '../state.js';

const KYC_HEADERS = ['x-cardholderHash-id'] as const;

/**
 * The KYC view (spec "KYC and RFI"); the link is empty once KYC is complete, except on the respond
 * endpoint, which always hands out a document-submission link (`submissionLink`).
 */
function kycView(record: CardholderRecord, submissionLink?: string) {
  const kyc = record.kyc;
  return {
    kycStatus: kyc.kycStatus,
    kycLink:
      submissionLink ?? (kyc.kycStatus === 'COMPLETED' ? '' : (kyc.rfi?.submissionLink ?? kyc.kycLink)),
    documentType: kyc.documentType,
    complianceStatus: kyc.complianceStatus,
    email: record.view.email,
  };
}

/** GET /kyc, /kyc/rfi and /kyc/rfi/respond (header `x-cardholderHash-id`). */
export function kycRoutes(ctx: SandboxContext, state: () => IssuingAState): RouteDef[] {
  return [
    {
      operation: 'issuingA.getKyc',
      method: 'GET',
      path: `${PREFIX}/kyc`,
      envelope: 'issuing',
      headers: 'HA',
      requiredHeaders: KYC_HEADERS,
      successCode: 200,
      handler: (req) => ({
        data: [kycView(hashHeaderCardholder(state(), req))],
        message: 'KYC details fetched successfully',
      }),
    },
    {
      operation: 'issuingA.getRfi',
      method: 'GET',
      path: `${PREFIX}/kyc/rfi`,
      envelope: 'issuing',
      headers: 'HA',
      requiredHeaders: KYC_HEADERS,
      successCode: 200,
      handler: (req) => {
        const rfi = hashHeaderCardholder(state(), req).kyc.rfi;
        // No open RFI: one element with nothing declined, keeping `data` the one-element array it always is.
        if (rfi === null) {
          return {
            data: [{ services_declined_codes: { address: [], document: [] }, declined_reason: '' }],
            message: 'No open request for information',
          };
        }
        return {
          data: [
            {
              services_declined_codes: structuredClone(rfi.services_declined_codes),
              declined_reason: rfi.declined_reason,
            },
          ],
          message: 'RFI details fetched successfully',
        };
      },
    },
    {
      operation: 'issuingA.respondRfi',
      method: 'GET',
      path: `${PREFIX}/kyc/rfi/respond`,
      envelope: 'issuing',
      headers: 'HA',
      requiredHeaders: KYC_HEADERS,
      successCode: 200,
      handler: (req) => {
        const record = hashHeaderCardholder(state(), req);
        const rfi = record.kyc.rfi;
        // No open RFI: still the KYC view with the cardholder's submission link, and no event
        // (kyc_rfi_responded is about an RFI).
        if (rfi === null) {
          return {
            data: [kycView(record, record.kyc.kycLink || kycLinkFor(record.view.id))],
            message: 'No open request for information; documents can be submitted at kycLink',
          };
        }
        // The first response opens the submission link; asking again hands out the same link.
        if (rfi.respondedAt === null || rfi.submissionLink === null) {
          rfi.respondedAt = isoUtc(ctx.clock.now());
          rfi.submissionLink = rfiLinkFor(record.view.id, ctx.newId('rfi'));
          ctx.events.emit({
            eventName: 'kyc_rfi_responded',
            data: { cardholderId: record.view.id },
            agentCode: record.agentCode,
            subagentCode: record.subagentCode,
          });
        }
        return {
          data: [kycView(record, rfi.submissionLink)],
          message: 'Submit the requested documents at kycLink',
        };
      },
    },
  ];
}
