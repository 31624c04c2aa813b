import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { parseInput } from '../../validate.js';
import { assertChangeable, cardRequest } from './identity.js';
import { CARD, hb2 } from './route.js';
import type { Card, Cardholder, IssuingBState } from './state.js';
import { threeDsView } from './views.js';

const MethodBody = z.object({
  otp_delivery_method: z.enum(['EMAIL', 'SMS'], {
    error: (iss) => (iss.input === undefined ? 'is required' : 'must be one of EMAIL, SMS'),
  }),
});

const notEnrolled = (card: Card) =>
  invalid(`card '${card.id}' is not enrolled in 3DS; enroll it with POST /card/3DS first`);

/** 3D Secure enrollment of a card (`/card/3DS`); the OTP goes to the cardholder's current e-mail or mobile. */
export function threeDsRoutes(ctx: SandboxContext, state: () => IssuingBState): RouteDef[] {
  const emit = (eventName: string, holder: Cardholder, card: Card): void =>
    ctx.events.emit({
      eventName,
      data: { cardId: card.id, cardholderId: holder.id, otp_delivery_method: card.threeDs },
      agentCode: holder.agentCode,
      subagentCode: holder.subagentCode,
    });
  return [
    hb2({
      operation: 'issuingB.enroll3ds',
      method: 'POST',
      path: '/card/3DS',
      requiredHeaders: CARD,
      handler: (req) => {
        const { holder, card } = cardRequest(req, state());
        const { otp_delivery_method: method } = parseInput(MethodBody, req.body);
        assertChangeable(card);
        const before = card.threeDs;
        card.threeDs = method;
        // Enrolling an enrolled card is taken as setting its method (the spec leaves it open).
        if (before === null) emit('card_enroll3DS', holder, card);
        else if (before !== method) emit('card_update3DSmethod', holder, card);
        return { message: 'Card enrolled in 3DS successfully', data: [] };
      },
    }),
    hb2({
      operation: 'issuingB.get3ds',
      method: 'GET',
      path: '/card/3DS',
      requiredHeaders: CARD,
      handler: (req) => {
        const { holder, card } = cardRequest(req, state());
        return { data: card.threeDs === null ? [] : [threeDsView(holder, card.threeDs)] };
      },
    }),
    hb2({
      operation: 'issuingB.update3ds',
      method: 'PATCH',
      path: '/card/3DS',
      requiredHeaders: CARD,
      handler: (req) => {
        const { holder, card } = cardRequest(req, state());
        const { otp_delivery_method: method } = parseInput(MethodBody, req.body);
        assertChangeable(card);
        if (card.threeDs === null) throw notEnrolled(card);
        card.threeDs = method;
        emit('card_update3DSmethod', holder, card);
        return { message: '3DS method updated successfully', data: [] };
      },
    }),
    hb2({
      operation: 'issuingB.unenroll3ds',
      method: 'DELETE',
      path: '/card/3DS',
      requiredHeaders: CARD,
      handler: (req) => {
        const { card } = cardRequest(req, state());
        assertChangeable(card);
        if (card.threeDs === null) throw notEnrolled(card);
        card.threeDs = null;
        return { message: 'Card unenrolled from 3DS successfully', data: [] };
      },
    }),
  ];
}
