import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { holderByHash } from './identity.js';
import { kycLink } from './links.js';
import { control, HASH, hb2 } from './route.js';
import type { IssuingBState } from './state.js';
import { kycView } from './views.js';

/**
 * KYC of a family B cardholder (`x-cardholderHash-id`). The spec lists `x-client-id` as required in
 * one place and optional in another; the sandbox treats it as optional.
 */
export function kycRoutes(ctx: SandboxContext, state: () => IssuingBState): RouteDef[] {
  return [
    hb2({
      operation: 'issuingB.getKyc',
      method: 'GET',
      path: '/kyc',
      requiredHeaders: HASH,
      handler: (req) => ({ data: [kycView(holderByHash(req, state()))] }),
    }),
    hb2({
      operation: 'issuingB.getRfi',
      method: 'GET',
      path: '/kyc/rfi',
      requiredHeaders: HASH,
      handler: (req) => {
        const rfi = holderByHash(req, state()).kyc.rfi;
        // "The same responses as family A": without an open RFI, one element with nothing declined.
        if (rfi === undefined) {
          return {
            message: 'No open request for information',
            data: [{ services_declined_codes: { address: [], document: [] }, declined_reason: '' }],
          };
        }
        return {
          data: [{ services_declined_codes: rfi.servicesDeclinedCodes, declined_reason: rfi.declinedReason }],
        };
      },
    }),
    hb2({
      operation: 'issuingB.respondRfi',
      method: 'GET',
      path: '/kyc/rfi/respond',
      requiredHeaders: HASH,
      handler: (req) => {
        const holder = holderByHash(req, state());
        const rfi = holder.kyc.rfi;
        // A fresh submission link each time, also without an open RFI and for a completed KYC
        // (the respond endpoint always hands one out); kept as the pending KYC's link.
        const link = kycLink();
        if (holder.kyc.status !== 'COMPLETED') holder.kyc.link = link;
        if (rfi === undefined) {
          // No RFI to respond to, so no kyc_rfi_responded event.
          return {
            message: 'No open request for information; documents can be submitted at kycLink',
            data: [kycView(holder, link)],
          };
        }
        // The event only for the first response to the RFI.
        if (!rfi.responded) {
          rfi.responded = true;
          ctx.events.emit({
            eventName: 'kyc_rfi_responded',
            data: { cardholderId: holder.id },
            agentCode: holder.agentCode,
            subagentCode: holder.subagentCode,
          });
        }
        return { message: 'RFI response link generated', data: [kycView(holder, link)] };
      },
    }),
    // KYC review happens outside the interface; this completes it.
    control('completeKyc', '/kyc/:cardholderId/complete', (req) => {
      const id = req.params.cardholderId ?? '';
      const holder = state().cardholders.get(id);
      if (holder === undefined) throw invalid(`cardholder '${id}' not found`);
      if (holder.kyc.status === 'COMPLETED') throw invalid(`KYC of cardholder '${id}' is already COMPLETED`);
      holder.kyc = { status: 'COMPLETED', complianceStatus: 'COMPLETED', link: '' };
      ctx.events.emit({
        eventName: 'kyc_complete',
        data: { cardholderId: id },
        agentCode: holder.agentCode,
        subagentCode: holder.subagentCode,
      });
      return { status: 'success', cardholderId: id, kycStatus: 'COMPLETED' };
    }),
  ];
}
