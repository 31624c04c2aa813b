import { optional } from '../../core/optional.js';
import type { Db } from './database.js';

export interface KnownCard {
  cardId: string;
  cardholderId: string;
  walletId: string;
  lastFour?: string;
}

/**
 * Family B card ids bankops has seen in answers (a card listing, a card it created), with the
 * cardholder and wallet they belong to: the service needs all three, people remember the card id.
 */
export class CardDirectory {
  readonly #upsert;
  readonly #find;

  constructor(db: Db) {
    this.#upsert = db.prepare(
      `INSERT INTO slack_cards (card_id, cardholder_id, wallet_id, last_four, seen_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (card_id) DO UPDATE SET cardholder_id = excluded.cardholder_id,
         wallet_id = excluded.wallet_id, last_four = coalesce(excluded.last_four, last_four),
         seen_at = excluded.seen_at`,
    );
    this.#find = db.prepare(
      'SELECT card_id, cardholder_id, wallet_id, last_four FROM slack_cards WHERE card_id = ?',
    );
  }

  remember(cards: readonly KnownCard[]): void {
    const now = Date.now();
    for (const card of cards) {
      this.#upsert.run(card.cardId, card.cardholderId, card.walletId, card.lastFour ?? null, now);
    }
  }

  find(cardId: string): KnownCard | undefined {
    const row = this.#find.get(cardId) as
      | { card_id: string; cardholder_id: string; wallet_id: string; last_four: string | null }
      | undefined;
    if (row === undefined) return undefined;
    return {
      cardId: row.card_id,
      cardholderId: row.cardholder_id,
      walletId: row.wallet_id,
      ...(row.last_four === null ? {} : { lastFour: row.last_four }),
    };
  }
}

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
  add(text(output.cardId));
  add(text(input.cardId));
  return found;
}
