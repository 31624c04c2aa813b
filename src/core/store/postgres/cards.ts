import { type CardDirectory, type CardRow, type KnownCard, knownCardOf } from '../../cards.js';
import { optional } from '../../optional.js';
import type { PgStore } from './pool.js';
import { statement } from './statement.js';

/**
 * One entry per card, as SQLite's upserts one after another leave it: the later entry wins, keeping
 * the last four an earlier one gave when it lacks them. PostgreSQL refuses an `ON CONFLICT DO UPDATE`
 * that meets the same key twice in one statement. Sorted by id, so two replicas writing the same
 * cards lock them in the same order (no deadlock between them).
 */
export function distinctCards(cards: readonly KnownCard[]): KnownCard[] {
  const byId = new Map<string, KnownCard>();
  for (const card of cards) {
    const lastFour = card.lastFour ?? byId.get(card.cardId)?.lastFour;
    byId.set(card.cardId, { ...card, ...optional('lastFour', lastFour) });
  }
  return [...byId.values()].sort((a, b) => (a.cardId < b.cardId ? -1 : a.cardId > b.cardId ? 1 : 0));
}

/** The card directory in PostgreSQL: `remember` is one statement however many cards (table by `migrate`). */
export function postgresCards(store: PgStore): CardDirectory {
  return {
    remember: async (cards) => {
      const distinct = distinctCards(cards);
      if (distinct.length === 0) return;
      await statement(
        store,
        `INSERT INTO cards (card_id, cardholder_id, wallet_id, last_four, seen_at)
         SELECT card_id, cardholder_id, wallet_id, last_four, $5::bigint
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
           AS given (card_id, cardholder_id, wallet_id, last_four)
         ON CONFLICT (card_id) DO UPDATE SET cardholder_id = excluded.cardholder_id,
           wallet_id = excluded.wallet_id, last_four = coalesce(excluded.last_four, cards.last_four),
           seen_at = excluded.seen_at`,
        [
          distinct.map((c) => c.cardId),
          distinct.map((c) => c.cardholderId),
          distinct.map((c) => c.walletId),
          distinct.map((c) => c.lastFour ?? null),
          Date.now(),
        ],
      );
    },
    find: async (cardId) => {
      const found = await statement<CardRow>(
        store,
        'SELECT card_id, cardholder_id, wallet_id, last_four FROM cards WHERE card_id = $1',
        [cardId],
      );
      const row = found.rows[0];
      return row === undefined ? undefined : knownCardOf(row);
    },
  };
}
