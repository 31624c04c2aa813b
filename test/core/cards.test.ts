import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteCards } from '../../src/core/store/sqlite/cards.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { migrateSlack } from '../../src/core/store/sqlite/slack-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'bankops-cards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one memory of cards', () => {
  it('carries over the cards an earlier Slack app remembered, and a new database has no Slack-only table', async () => {
    const old = openDatabase(join(dir, 'old.db'));
    old.exec(`CREATE TABLE slack_cards (card_id TEXT PRIMARY KEY, cardholder_id TEXT NOT NULL,
      wallet_id TEXT NOT NULL, last_four TEXT, seen_at INTEGER NOT NULL) STRICT`);
    old
      .prepare('INSERT INTO slack_cards VALUES (?, ?, ?, ?, ?)')
      .run('crd_b_0001', 'chd_b_0001', 'wal_b_0001', '4821', 1);
    expect(await sqliteCards(old).find('crd_b_0001')).toEqual({
      cardId: 'crd_b_0001',
      cardholderId: 'chd_b_0001',
      walletId: 'wal_b_0001',
      lastFour: '4821',
    });
    old.close();

    const fresh = openDatabase(join(dir, 'new.db'));
    migrateSlack(fresh);
    const cards = sqliteCards(fresh);
    await cards.remember([{ cardId: 'crd_b_0002', cardholderId: 'chd_b_0002', walletId: 'wal_b_0002' }]);
    expect(await cards.find('crd_b_0002')).toEqual({
      cardId: 'crd_b_0002',
      cardholderId: 'chd_b_0002',
      walletId: 'wal_b_0002',
    });
    const tables = fresh.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    expect(tables.map((t) => t.name)).not.toContain('slack_cards');
    fresh.close();
  });
});
