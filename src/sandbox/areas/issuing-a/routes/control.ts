import { z } from 'zod';
import type { RouteDef, SandboxContext } from '../../../types.js';
import { parseInput } from '../../../validate.js';
import { cardholderById } from '../lookup.js';
import type { IssuingAState } from '../state.js';

const CompleteKycBody = z.object({ cardholderId: z.string().min(1) });

/**
 * POST /_sandbox/issuing-a/kyc/complete: stands in for the cardholder finishing KYC at the link,
 * which happens outside the interface, so the `kyc_complete` event can be seen in the sandbox.
 */
export function controlRoutes(ctx: SandboxContext, state: () => IssuingAState): RouteDef[] {
  return [
    {
      operation: 'sandbox.issuingA.completeKyc',
      method: 'POST',
      path: '/_sandbox/issuing-a/kyc/complete',
      envelope: 'bare',
      headers: 'none',
      successCode: 200,
      handler: (req) => {
        const { cardholderId } = parseInput(CompleteKycBody, req.body);
        const record = cardholderById(state(), cardholderId);
        record.kyc = { ...record.kyc, kycStatus: 'COMPLETED', complianceStatus: 'COMPLETED', rfi: null };
        record.view.kyc_status = 'COMPLETED';
        record.view.review_status = 'APPROVED';
        record.view.status = 'SUCCESS';
        ctx.events.emit({
          eventName: 'kyc_complete',
          data: { cardholderId },
          agentCode: record.agentCode,
          subagentCode: record.subagentCode,
        });
        return {
          raw: { status: 'success', cardholderId, kycStatus: 'COMPLETED', complianceStatus: 'COMPLETED' },
        };
      },
    },
  ];
}
