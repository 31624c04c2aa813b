import { optional } from './optional.js';

/**
 * Family B card ids bankops has seen in any answer, from any front end (a card listing, a card it
 * created, a card it acted on), with the cardholder and wallet they belong to: the service needs
 * all three, people remember the card id. Only ids and the last four digits are kept.
 */
export interface KnownCard {
  cardId: string;
  cardholderId: string;
  walletId: string;
  lastFour?: string;
}

/**
 * The directory's store: `remember` is one multi-row upsert (the last four kept when a later answer
 * lacks them), `find` one read. A card may come twice in one call (its id in both the input and the
 * output): the later entry wins. Its SQL lives with each backend (`store/sqlite/cards.ts`,
 * `store/postgres/cards.ts`).
 */
export interface CardDirectory {
  remember(cards: readonly KnownCard[]): Promise<void>;
  find(cardId: string): Promise<KnownCard | undefined>;
}

/** A stored `cards` row, as both backends read it. */
export interface CardRow {
  card_id: string;
  cardholder_id: string;
  wallet_id: string;
  last_four: string | null;
}

/** The card a stored row holds. */
export const knownCardOf = (row: CardRow): KnownCard => ({
  cardId: row.card_id,
  cardholderId: row.cardholder_id,
  walletId: row.wallet_id,
  ...optional('lastFour', row.last_four ?? undefined),
});

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The cards a successful call revealed: its input names the cardholder and wallet, its output the
 * card ids (a listing's `cards`, a new card's `cardId`), or its input the card (a card it acted on).
 */
export function cardsSeen(input: Record<string, unknown>, output: Record<string, unknown>): KnownCard[] {
  const cardholderId = text(input.cardholderId);
  const walletId = text(input.walletId);
  if (cardholderId === undefined || walletId === undefined) return [];
  const found: KnownCard[] = [];
  const add = (cardId: string | undefined, lastFour?: unknown): void => {
    if (cardId === undefined) return;
    const four = text(lastFour);
    found.push({ cardId, cardholderId, walletId, ...optional('lastFour', four) });
  };
  if (Array.isArray(output.cards)) {
    for (const card of output.cards) {
      if (typeof card === 'object' && card !== null) {
        const c = card as Record<string, unknown>;
        add(text(c.cardId), c.last4);
      }
    }
  }
  const card = output.card;
  const four =
    typeof card === 'object' && card !== null ? (card as Record<string, unknown>).last4 : undefined;
  add(text(output.cardId), four);
  add(text(input.cardId), four);
  return found;
}
