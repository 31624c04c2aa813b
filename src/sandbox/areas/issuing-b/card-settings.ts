import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { parseInput } from '../../validate.js';
import { assertChangeable, cardRequest } from './identity.js';
import { revealLink } from './links.js';
import { CARD, hb2 } from './route.js';
import { CARD_STATUSES, type CardStatus, type IssuingBState } from './state.js';
import { cardDetails } from './views.js';

const ConfigurationBody = z.object({
  card_present_transaction_enabled: z.boolean({
    error: (iss) => (iss.input === undefined ? 'is required' : 'must be a boolean (true or false)'),
  }),
});

const statusEnum = () =>
  z.enum(CARD_STATUSES, { error: `must be one of ${CARD_STATUSES.join(', ')}` }).optional();

/** The spec does not show this body; the sandbox takes `status` and, as an alias, `card_status`. */
const StatusBody = z.object({ status: statusEnum(), card_status: statusEnum() });

function targetStatus(body: z.infer<typeof StatusBody>): CardStatus {
  const { status, card_status: alias } = body;
  if (status !== undefined && alias !== undefined && status !== alias) {
    throw invalid('status: status and card_status disagree; send one of them');
  }
  const target = status ?? alias;
  if (target === undefined) throw invalid(`status: is required (one of ${CARD_STATUSES.join(', ')})`);
  return target;
}

/**
 * The spec's card transitions: ACTIVE only from LOCKED; LOST, STOLEN and BLOCKED are final.
 * Other moves between INACTIVE, ACTIVE and LOCKED are allowed (the spec leaves them open).
 */
function checkTransition(id: string, from: CardStatus, to: CardStatus): void {
  if (from === to) throw invalid(`status: card '${id}' is already ${from}`);
  if (to === 'ACTIVE' && from !== 'LOCKED') {
    throw invalid(`status: only a LOCKED card can be set to ACTIVE (card '${id}' is ${from})`);
  }
}

export function cardSettingRoutes(ctx: SandboxContext, state: () => IssuingBState): RouteDef[] {
  return [
    hb2({
      operation: 'issuingB.getCardDetails',
      method: 'GET',
      path: '/card/details',
      requiredHeaders: CARD,
      handler: (req) => ({ data: [cardDetails(cardRequest(req, state()).card)] }),
    }),
    hb2({
      operation: 'issuingB.getCardToken',
      method: 'GET',
      path: '/card/token',
      requiredHeaders: CARD,
      handler: (req) => {
        const { card } = cardRequest(req, state());
        // The link reveals the full number and CVV: not for a card reported lost or stolen.
        assertChangeable(card);
        return { data: [{ url: revealLink() }] };
      },
    }),
    hb2({
      operation: 'issuingB.getCardConfiguration',
      method: 'GET',
      path: '/card/configuration',
      requiredHeaders: CARD,
      handler: (req) => {
        const { card } = cardRequest(req, state());
        return { data: [{ card_present_transaction_enabled: card.cardPresentEnabled }] };
      },
    }),
    hb2({
      operation: 'issuingB.updateCardConfiguration',
      method: 'PATCH',
      path: '/card/configuration',
      requiredHeaders: CARD,
      handler: (req) => {
        const { holder, card } = cardRequest(req, state());
        const body = parseInput(ConfigurationBody, req.body);
        assertChangeable(card);
        card.cardPresentEnabled = body.card_present_transaction_enabled;
        ctx.events.emit({
          eventName: 'card_configuration',
          data: {
            cardId: card.id,
            cardholderId: holder.id,
            card_present_transaction_enabled: card.cardPresentEnabled,
          },
          agentCode: holder.agentCode,
          subagentCode: holder.subagentCode,
        });
        return {
          message: 'Card configuration updated successfully',
          data: [{ card_present_transaction_enabled: card.cardPresentEnabled }],
        };
      },
    }),
    hb2({
      operation: 'issuingB.updateCardStatus',
      method: 'PATCH',
      path: '/card/status/update',
      requiredHeaders: CARD,
      handler: (req) => {
        const { holder, card } = cardRequest(req, state());
        const target = targetStatus(parseInput(StatusBody, req.body));
        assertChangeable(card);
        checkTransition(card.id, card.status, target);
        const previousStatus = card.status;
        card.status = target;
        ctx.events.emit({
          eventName: 'card_status',
          data: { cardId: card.id, cardholderId: holder.id, status: target, previousStatus },
          agentCode: holder.agentCode,
          subagentCode: holder.subagentCode,
        });
        return { message: 'Card status updated successfully', data: [{ cardId: card.id, status: target }] };
      },
    }),
  ];
}
