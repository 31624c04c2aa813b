import { invalid } from '../../../errors.js';
import type { RouteDef, SandboxContext } from '../../../types.js';
import { isoUtc, parseInput, requiredQuery } from '../../../validate.js';
import { hashPin } from '../card-number.js';
import { cardById, cardholderById, PREFIX } from '../lookup.js';
import { ActivateCardBody, ResetPinBody } from '../schemas.js';
import type { CardRecord, IssuingAState } from '../state.js';

/** Refuses virtual cards: activation and PIN handling are for assigned physical cards. */
function physical(card: CardRecord, what: string): void {
  if (card.cardType !== 'PHYSICAL') {
    throw invalid(`card '${card.id}' is a virtual card; ${what} applies only to an assigned physical card`);
  }
}

/** POST /card/activate and POST /card/pin. Neither ever repeats a PIN or an activation code. */
export function activationRoutes(ctx: SandboxContext, state: () => IssuingAState): RouteDef[] {
  return [
    {
      operation: 'issuingA.activateCard',
      method: 'POST',
      path: `${PREFIX}/card/activate`,
      envelope: 'issuing',
      headers: 'HA',
      successCode: 200,
      handler: (req) => {
        const s = state();
        const card = cardById(s, requiredQuery(req, 'id'));
        const body = parseInput(ActivateCardBody, req.body);
        physical(card, 'activation');
        if (card.status === 'ACTIVE') throw invalid(`card '${card.id}' is already activated`);
        const stock = [...s.inventory.values()].find((c) => c.assignedCardId === card.id);
        if (stock === undefined || stock.activationCode !== body.activation_code) {
          throw invalid('activation_code: does not match the code delivered with this card');
        }
        const now = isoUtc(ctx.clock.now());
        card.status = 'ACTIVE';
        card.activatedAt = now;
        card.pinHash = hashPin(card.id, body.pin);
        const holder = cardholderById(s, card.cardholderId);
        ctx.events.emit({
          eventName: 'card_activate',
          data: { cardId: card.id, cardholderId: card.cardholderId },
          agentCode: holder.agentCode,
          subagentCode: holder.subagentCode,
        });
        return { message: 'Card activated successfully' };
      },
    },
    {
      operation: 'issuingA.resetPin',
      method: 'POST',
      path: `${PREFIX}/card/pin`,
      envelope: 'issuing',
      headers: 'HA',
      successCode: 200,
      handler: (req) => {
        const card = cardById(state(), requiredQuery(req, 'id'));
        const body = parseInput(ResetPinBody, req.body);
        physical(card, 'PIN reset');
        if (card.status !== 'ACTIVE') {
          throw invalid(
            `card '${card.id}' is not activated yet; its first PIN is set by POST /card/activate`,
          );
        }
        card.pinHash = hashPin(card.id, body.pin);
        return { message: 'PIN reset successfully' };
      },
    },
  ];
}
