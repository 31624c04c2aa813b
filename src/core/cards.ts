import { type Db, migrate } from './db.js';
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

export interface CardDirectory {
  remember(cards: readonly KnownCard[]): void;
  find(cardId: string): KnownCard | undefined;
}

/** The directory in bankops's database; cards the Slack app remembered before are carried over. */
export function sqliteCards(db: Db): CardDirectory {
  const hadSlackCards =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'slack_cards'").get() !==
    undefined;
  migrate(db, 'cards-1', [
    `CREATE TABLE cards (
       card_id TEXT PRIMARY KEY,
       cardholder_id TEXT NOT NULL,
       wallet_id TEXT NOT NULL,
       last_four TEXT,
       seen_at INTEGER NOT NULL
     ) STRICT`,
    ...(hadSlackCards
      ? [
          `INSERT OR IGNORE INTO cards (card_id, cardholder_id, wallet_id, last_four, seen_at)
           SELECT card_id, cardholder_id, wallet_id, last_four, seen_at FROM slack_cards`,
        ]
      : []),
  ]);
  const upsert = db.prepare(
    `INSERT INTO cards (card_id, cardholder_id, wallet_id, last_four, seen_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (card_id) DO UPDATE SET cardholder_id = excluded.cardholder_id,
       wallet_id = excluded.wallet_id, last_four = coalesce(excluded.last_four, last_four),
       seen_at = excluded.seen_at`,
  );
  const select = db.prepare(
    'SELECT card_id, cardholder_id, wallet_id, last_four FROM cards WHERE card_id = ?',
  );
  return {
    remember: (cards) => {
      const now = Date.now();
      for (const card of cards)
        upsert.run(card.cardId, card.cardholderId, card.walletId, card.lastFour ?? null, now);
    },
    find: (cardId) => {
      const row = select.get(cardId) as
        | { card_id: string; cardholder_id: string; wallet_id: string; last_four: string | null }
        | undefined;
      if (row === undefined) return undefined;
      return {
        cardId: row.card_id,
        cardholderId: row.cardholder_id,
        walletId: row.wallet_id,
        ...optional('lastFour', row.last_four ?? undefined),
      };
    },
  };
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
  const card = output.card;
  const four =
    typeof card === 'object' && card !== null ? (card as Record<string, unknown>).last4 : undefined;
  add(text(output.cardId), four);
  add(text(input.cardId), four);
  return found;
}
