import { type CardDirectory, type CardRow, knownCardOf } from '../../cards.js';
import { type Db, migrate } from './database.js';
import { underFileLock } from './file-lock.js';

type KnownCardArgs = [string, string, string, string | null, number];

/** The card directory in the SQLite database; cards the Slack app remembered before are carried over. */
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
  const rememberAll = db.transaction((cards: readonly KnownCardArgs[]) => {
    for (const card of cards) upsert.run(...card);
  });
  return {
    remember: async (cards) => {
      const now = Date.now();
      const rows = cards.map(
        (c): KnownCardArgs => [c.cardId, c.cardholderId, c.walletId, c.lastFour ?? null, now],
      );
      await underFileLock(db, () => rememberAll(rows));
    },
    find: async (cardId) => {
      const row = select.get(cardId) as CardRow | undefined;
      return row === undefined ? undefined : knownCardOf(row);
    },
  };
}
