import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/core/store/sqlite/database.js';
import { sqlitePayees } from '../../../../src/core/store/sqlite/payees.js';
import { sqliteStorage } from '../../../../src/core/store/sqlite/storage.js';

const dir = mkdtempSync(join(tmpdir(), 'bankops-file-lock-'));
const db = openDatabase(join(dir, 'bankops.db'));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the SQLite file's lock", () => {
  it('keeps a store write out of a core transaction that awaits, so its rollback does not take it', async () => {
    const storage = sqliteStorage(db);
    const payees = sqlitePayees(db);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const failing = storage.transaction(async (tx) => {
      await tx.links.prune('2000-01-01T00:00:00.000Z');
      entered();
      await gate;
      throw new Error('rolled back');
    });
    await inside;
    const written = payees.remember({ id: 'pay_1', name: 'Acme' });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(await payees.get('pay_1')).toBeUndefined();
    open();
    await expect(failing).rejects.toThrow('rolled back');
    await written;
    expect(await payees.get('pay_1')).toEqual({ id: 'pay_1', name: 'Acme' });
  });

  it('lets a store write made inside a transaction join it', async () => {
    const storage = sqliteStorage(db);
    const payees = sqlitePayees(db);
    await expect(
      storage.transaction(async () => {
        await payees.remember({ id: 'pay_2', name: 'Inside' });
        throw new Error('both go');
      }),
    ).rejects.toThrow('both go');
    expect(await payees.get('pay_2')).toBeUndefined();
  });
});
