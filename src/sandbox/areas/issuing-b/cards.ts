import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { pageNumberQuery, pageSizeQuery, paginate, parseInput } from '../../validate.js';
import { newCardNumber } from './card-number.js';
import { activeHolder, assertChangeable, cardRequest, walletOf } from './identity.js';
import { defaultLimits } from './limits.js';
import { CARD, hb2, WALLET } from './route.js';
import type { Card, Cardholder, IssuingBState, Wallet } from './state.js';
import { cardListItem } from './views.js';

const CreateCardBody = z.object({
  card_type: z.literal('virtual', {
    error: (iss) =>
      iss.input === undefined
        ? 'is required'
        : "must be 'virtual' (physical cards are issued through /card/assign)",
  }),
  is_primary: z.enum(['true', 'false'], { error: "must be the string 'true' or 'false'" }).optional(),
});

const AssignCardBody = z.object({
  last_four_digit: z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string of 4 digits') })
    .refine((v) => /^\d{4}$/.test(v), 'must be the last 4 digits of the card number'),
  code: z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .refine((v) => v.trim() !== '', 'must not be blank'),
});

/**
 * A new card, in the state the spec gives for creation and assignment: active, enrolled in 3DS by
 * e-mail to the registered address, with the default spend limits.
 */
function issue(
  ctx: SandboxContext,
  wallet: Wallet,
  type: Card['type'],
  number: string,
  primary: boolean,
): Card {
  return {
    id: ctx.newId('card'),
    cardholderId: wallet.cardholderId,
    walletId: wallet.id,
    type,
    status: 'ACTIVE',
    number,
    numberId: ctx.newId('cn'),
    createdAt: ctx.clock.now(),
    isPrimary: primary,
    pinSet: false,
    cardPresentEnabled: true,
    threeDs: 'EMAIL',
    limits: defaultLimits(),
  };
}

function store(s: IssuingBState, card: Card): void {
  if (card.isPrimary) {
    for (const other of s.cards.values()) if (other.walletId === card.walletId) other.isPrimary = false;
  }
  s.cards.set(card.id, card);
}

export function cardRoutes(ctx: SandboxContext, state: () => IssuingBState): RouteDef[] {
  const emit = (eventName: string, holder: Cardholder, card: Card): void =>
    ctx.events.emit({
      eventName,
      data: { cardId: card.id, cardholderId: holder.id, walletId: card.walletId, cardType: card.type },
      agentCode: holder.agentCode,
      subagentCode: holder.subagentCode,
    });
  return [
    hb2({
      operation: 'issuingB.createCard',
      method: 'POST',
      path: '/card',
      requiredHeaders: WALLET,
      idempotent: true,
      handler: (req) => {
        const s = state();
        const holder = activeHolder(req, s);
        const wallet = walletOf(req, s, holder);
        const body = parseInput(CreateCardBody, req.body);
        const card = issue(ctx, wallet, 'VIRTUAL', newCardNumber(), body.is_primary === 'true');
        store(s, card);
        emit('card_create', holder, card);
        return { message: 'Card created successfully', data: [{ cardId: card.id }] };
      },
    }),
    hb2({
      operation: 'issuingB.assignCard',
      method: 'POST',
      path: '/card/assign',
      requiredHeaders: WALLET,
      idempotent: true,
      handler: (req) => {
        const s = state();
        const holder = activeHolder(req, s);
        const wallet = walletOf(req, s, holder);
        const body = parseInput(AssignCardBody, req.body);
        const stock = s.inventory.find(
          (p) =>
            p.assignedCardId === undefined && p.number.endsWith(body.last_four_digit) && p.code === body.code,
        );
        // Neither value is echoed: the code is a secret, and the pair is checked as a whole.
        if (stock === undefined)
          throw invalid('no unassigned physical card matches last_four_digit and code');
        const card = issue(ctx, wallet, 'PHYSICAL', stock.number, false);
        stock.assignedCardId = card.id;
        store(s, card);
        emit('card_create', holder, card);
        emit('card_activate', holder, card);
        return { message: 'Card assigned successfully', data: [{ cardId: card.id }] };
      },
    }),
    hb2({
      operation: 'issuingB.listCards',
      method: 'GET',
      path: '/card/list',
      requiredHeaders: WALLET,
      handler: (req) => {
        const s = state();
        const wallet = walletOf(req, s, activeHolder(req, s));
        const page = pageNumberQuery(req, 'page');
        const size = pageSizeQuery(req, 'size');
        const cards = [...s.cards.values()].filter((c) => c.walletId === wallet.id);
        const slice = paginate(cards, page, size);
        return {
          data: [
            {
              cards: slice.items.map(cardListItem),
              total_count: slice.total,
              page: slice.page,
              total_pages: slice.totalPages,
            },
          ],
        };
      },
    }),
    hb2({
      operation: 'issuingB.activateCard',
      method: 'POST',
      path: '/card/activate',
      requiredHeaders: CARD,
      handler: (req) => {
        const { holder, card } = cardRequest(req, state());
        assertChangeable(card);
        if (card.status !== 'INACTIVE') {
          throw invalid(`card '${card.id}' is ${card.status}; only an INACTIVE card can be activated`);
        }
        card.status = 'ACTIVE';
        emit('card_activate', holder, card);
        return { message: 'Card activated successfully', data: [{ status: 'ACTIVE' }] };
      },
    }),
  ];
}
