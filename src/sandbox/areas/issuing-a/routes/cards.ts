import { invalid } from '../../../errors.js';
import type { RouteDef, SandboxContext } from '../../../types.js';
import { isoUtc, parseInput } from '../../../validate.js';
import { maskCardNumber, newVirtualCardNumber } from '../card-number.js';
import { PROGRAM_DEFAULT_CARD_LIMITS } from '../defaults.js';
import { cardholderById, PREFIX } from '../lookup.js';
import { AssignCardBody, CreateCardBody } from '../schemas.js';
import type { CardRecord, IssuingAState } from '../state.js';

/** POST /card (virtual cards) and POST /card/assign (physical cards from the inventory). */
export function cardRoutes(ctx: SandboxContext, state: () => IssuingAState): RouteDef[] {
  return [
    {
      operation: 'issuingA.createCard',
      method: 'POST',
      path: `${PREFIX}/card`,
      envelope: 'issuing',
      headers: 'HA',
      successCode: 201,
      idempotent: true,
      handler: (req) => {
        const s = state();
        const body = parseInput(CreateCardBody, req.body);
        // The body's request_id is stored with the card but is not an idempotency key: the
        // x-request-id header is (route option `idempotent`), so two requests that copy the same
        // sample body under different x-request-ids make two cards.
        const holder = cardholderById(s, body.card_holder_id);
        const limits = body.authorization_controls.transaction_limits.limits;
        const now = isoUtc(ctx.clock.now());
        const card: CardRecord = {
          id: ctx.newId('card'),
          cardholderId: holder.view.id,
          cardType: 'VIRTUAL',
          status: 'ACTIVE',
          currency: body.authorization_controls.transaction_limits.currency,
          maskedNumber: maskCardNumber(newVirtualCardNumber()),
          nickname: null,
          createdAt: now,
          createdBy: body.created_by,
          requestId: body.request_id,
          limits: limits === undefined ? [...PROGRAM_DEFAULT_CARD_LIMITS] : limits.map((l) => ({ ...l })),
          limitsSource: limits === undefined ? 'program_default' : 'request',
          cardMode: null,
          pinHash: null,
          activatedAt: now,
        };
        s.cards.set(card.id, card);
        ctx.events.emit({
          eventName: 'card_create',
          data: { cardId: card.id, cardholderId: holder.view.id, cardType: 'VIRTUAL' },
          agentCode: holder.agentCode,
          subagentCode: holder.subagentCode,
        });
        return { data: { id: card.id }, message: 'Card created successfully' };
      },
    },
    {
      operation: 'issuingA.assignCard',
      method: 'POST',
      path: `${PREFIX}/card/assign`,
      envelope: 'issuing',
      headers: 'HA',
      successCode: 200,
      idempotent: true,
      handler: (req) => {
        const s = state();
        const body = parseInput(AssignCardBody, req.body);
        const createdBy = body.createdBy ?? body.created_by;
        if (createdBy === undefined)
          throw invalid('invalid request body: createdBy: is required (created_by is accepted too)');
        const holder = cardholderById(s, body.cardholder_id);
        // Card numbers are secrets: the messages below never repeat them.
        const stock = s.inventory.get(body.card_number);
        if (stock === undefined) throw invalid('card_number: card number not found in inventory');
        if (stock.assignedCardId !== null) throw invalid('card_number: this card is already assigned');
        if (stock.currency !== body.card_currency) {
          throw invalid(`card_currency: the card is issued in ${stock.currency}, not ${body.card_currency}`);
        }
        const card: CardRecord = {
          id: ctx.newId('card'),
          cardholderId: holder.view.id,
          cardType: 'PHYSICAL',
          status: 'INACTIVE',
          currency: stock.currency,
          maskedNumber: maskCardNumber(stock.cardNumber),
          nickname: null,
          createdAt: isoUtc(ctx.clock.now()),
          createdBy,
          requestId: null,
          limits: [...PROGRAM_DEFAULT_CARD_LIMITS],
          limitsSource: 'program_default',
          cardMode: body.card_mode,
          pinHash: null,
          activatedAt: null,
        };
        s.cards.set(card.id, card);
        stock.assignedCardId = card.id;
        return { data: [{ card_id: card.id }], message: 'Card assigned successfully; activate it to use it' };
      },
    },
  ];
}
