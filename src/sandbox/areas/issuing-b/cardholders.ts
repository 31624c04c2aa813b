import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { parseInput } from '../../validate.js';
import { CreateCardholderBody, UpdateCardholderBody } from './cardholder-fields.js';
import { defined } from './defined.js';
import { holderByEitherId, holderByHash } from './identity.js';
import { kycLink } from './links.js';
import { control, HASH, hb2 } from './route.js';
import type { Cardholder, CardholderFields, IssuingBState, Kyc } from './state.js';
import { cardholderView } from './views.js';

/** The spec's conditional pair: a reference needs its provider, a provider needs its reference. */
function checkKycPair(fields: Partial<CardholderFields>): void {
  if (fields.kycReferenceId !== undefined && fields.kycProviderName === undefined) {
    throw invalid('kycReferenceId: must not be sent without kycProviderName');
  }
  if (fields.kycProviderName !== undefined && fields.kycReferenceId === undefined) {
    throw invalid('kycReferenceId: is required when kycProviderName is given');
  }
}

/** A cardholder verified by the client's own provider arrives with KYC finished (spec: "must be finished first"). */
function initialKyc(fields: CardholderFields): Kyc {
  return fields.kycProviderName === undefined
    ? { status: 'PENDING', complianceStatus: 'IN_PROGRESS', link: kycLink() }
    : { status: 'COMPLETED', complianceStatus: 'COMPLETED', link: '' };
}

export function cardholderRoutes(ctx: SandboxContext, state: () => IssuingBState): RouteDef[] {
  return [
    hb2({
      operation: 'issuingB.createCardholder',
      method: 'POST',
      path: '/cardholder',
      requiredHeaders: ['x-agent-code', 'x-subagent-code'],
      idempotent: true,
      handler: (req) => {
        const fields: CardholderFields = defined(parseInput(CreateCardholderBody, req.body));
        checkKycPair(fields);
        const s = state();
        const holder: Cardholder = {
          id: ctx.newId('chb'),
          fields,
          createdAt: ctx.clock.now(),
          active: true,
          agentCode: req.header('x-agent-code') ?? '',
          subagentCode: req.header('x-subagent-code') ?? '',
          kyc: initialKyc(fields),
        };
        s.cardholders.set(holder.id, holder);
        ctx.events.emit({
          eventName: 'cardholder_create',
          data: { cardholderId: holder.id, email: fields.email },
          agentCode: holder.agentCode,
          subagentCode: holder.subagentCode,
        });
        return { message: 'Cardholder created successfully', data: [{ id: holder.id }] };
      },
    }),
    hb2({
      operation: 'issuingB.getCardholder',
      method: 'GET',
      path: '/cardholder',
      requiredHeaders: HASH,
      handler: (req) => ({ data: [cardholderView(holderByHash(req, state()))] }),
    }),
    hb2({
      operation: 'issuingB.updateCardholder',
      method: 'PATCH',
      path: '/cardholder',
      requiredHeaders: HASH,
      handler: (req) => {
        const s = state();
        const holder = holderByHash(req, s);
        const changes = defined(parseInput(UpdateCardholderBody, req.body));
        const changed = Object.keys(changes);
        if (changed.length === 0) {
          throw invalid('request body: give at least one cardholder field to change');
        }
        const merged: CardholderFields = { ...holder.fields, ...changes };
        checkKycPair(merged);
        holder.fields = merged;
        ctx.events.emit({
          eventName: 'cardholder_update',
          data: { cardholderId: holder.id, fields: changed },
          agentCode: holder.agentCode,
          subagentCode: holder.subagentCode,
        });
        return {
          message: 'Cardholder updated successfully',
          data: ['Cardholder details updated successfully'],
        };
      },
    }),
    hb2({
      operation: 'issuingB.activateCardholder',
      method: 'POST',
      path: '/cardholder/activate',
      // Headers not shown: x-cardholderHash-id or x-cardholder-id, checked by holderByEitherId.
      handler: (req) => {
        const holder = holderByEitherId(req, state());
        // Activating an active cardholder changes nothing and says so (no-op, not an error).
        if (holder.active) return { message: 'Cardholder is already active', data: [{ status: 'ACTIVE' }] };
        holder.active = true;
        return { message: 'Cardholder activated successfully', data: [{ status: 'ACTIVE' }] };
      },
    }),
    // What deactivates a cardholder is not in the spec; this stands in for it.
    control('deactivateCardholder', '/cardholders/:id/deactivate', (req) => {
      const id = req.params.id ?? '';
      const holder = state().cardholders.get(id);
      if (holder === undefined) throw invalid(`cardholder '${id}' not found`);
      if (!holder.active) throw invalid(`cardholder '${id}' is already deactivated`);
      holder.active = false;
      return { status: 'success', cardholderId: id, cardholderStatus: 'INACTIVE' };
    }),
  ];
}
