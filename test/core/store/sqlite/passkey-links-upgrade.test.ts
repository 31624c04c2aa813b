import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../../../src/core/actors.js';
import { migrate, openDatabase } from '../../../../src/core/store/sqlite/database.js';
import { SqliteLinkStore } from '../../../../src/core/store/sqlite/passkeys.js';
import { migratePasskeys } from '../../../../src/core/store/sqlite/passkeys-schema.js';
import { tempDir } from '../../../helpers/audit.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** `passkey_links` as a database made before break-glass links has it (`passkeys-1`). */
const BEFORE = `CREATE TABLE passkey_links (
  digest TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('enroll', 'approve')),
  person TEXT NOT NULL,
  actor_json TEXT NOT NULL,
  approval_id TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  challenge TEXT,
  used_at TEXT
) STRICT`;

describe('passkeys-2-break-glass on SQLite', () => {
  it('keeps the links of an older database and takes break-glass links with their reason', async () => {
    const db = openDatabase(join(tmp.dir, 'older.db'));
    try {
      migrate(db, 'passkeys-1', [
        'CREATE TABLE passkeys (credential_id TEXT PRIMARY KEY) STRICT',
        BEFORE,
        'CREATE INDEX passkey_links_expiry ON passkey_links (expires_at)',
      ]);
      db.prepare(
        `INSERT INTO passkey_links (digest, purpose, person, actor_json, approval_id, created_at, expires_at, challenge)
         VALUES ('d1', 'approve', 'cli:bob', ?, 'apr_1', '2026-11-29T08:00:00.000Z', '2026-11-29T08:05:00.000Z', 'n1')`,
      ).run(JSON.stringify(cliActor('bob')));
      migratePasskeys(db);
      const links = new SqliteLinkStore(db);
      expect(await links.find('d1', 'approve')).toMatchObject({
        person: 'cli:bob',
        challenge: 'n1',
        reason: null,
      });
      await links.insert({
        digest: 'd2',
        purpose: 'break_glass',
        person: 'cli:ada',
        actor: cliActor('ada'),
        approvalId: 'apr_2',
        reason: 'approvers offline',
        createdAt: '2026-11-29T08:00:00.000Z',
        expiresAt: '2026-11-29T08:05:00.000Z',
      });
      expect(await links.find('d2', 'break_glass')).toMatchObject({
        reason: 'approvers offline',
        usedAt: null,
      });
      expect(await links.find('d2', 'approve')).toBeUndefined();
      expect(() =>
        db.prepare("UPDATE passkey_links SET purpose = 'other' WHERE digest = 'd2'").run(),
      ).toThrow(/CHECK constraint/);
    } finally {
      db.close();
    }
  });
});
