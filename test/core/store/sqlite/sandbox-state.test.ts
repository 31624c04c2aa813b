import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/core/store/sqlite/database.js';
import { sqliteSandboxStore } from '../../../../src/core/store/sqlite/sandbox-state.js';

const dir = mkdtempSync(join(tmpdir(), 'bankops-sandbox-state-'));
const file = join(dir, 'bankops.sandbox.db');
const db = openDatabase(file, { synchronous: 'NORMAL' });
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A promise and what settles it, for a step a test lets happen when it says so. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("the embedded sandbox's state file", () => {
  it('has one writer at a time: a second load-change-save starts after the first saved', async () => {
    const store = sqliteSandboxStore(db);
    store.save(Buffer.from('0'));
    const held = gate();
    const seen: string[] = [];
    const first = store.exclusive(async () => {
      const loaded = store.load(0);
      await held.opened;
      seen.push(`first saw ${loaded?.state.toString()}`);
      store.save(Buffer.from(`${loaded?.state.toString()}+a`));
    });
    const second = store.exclusive(async () => {
      const loaded = store.load(0);
      seen.push(`second saw ${loaded?.state.toString()}`);
      store.save(Buffer.from(`${loaded?.state.toString()}+b`));
    });
    held.open();
    await Promise.all([first, second]);
    expect(seen).toEqual(['first saw 0', 'second saw 0+a']);
    expect(store.load(0)?.state.toString()).toBe('0+a+b');

    // Another process (its own connection) waits for the lock as well: it cannot begin meanwhile.
    const other = openDatabase(file, { synchronous: 'NORMAL' });
    try {
      other.pragma('busy_timeout = 0');
      const blocked = gate();
      const begun = gate();
      const holding = store.exclusive(() => {
        begun.open();
        return blocked.opened;
      });
      await begun.opened;
      try {
        expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
      } finally {
        blocked.open();
        await holding;
      }
      other.exec('BEGIN IMMEDIATE');
      other.exec('COMMIT');
    } finally {
      other.close();
    }
  });

  it('keeps what a failing change saved before it failed (a fault used up, then the request refused)', async () => {
    const store = sqliteSandboxStore(db);
    store.save(Buffer.from('before'));
    await expect(
      store.exclusive(async () => {
        store.save(Buffer.from('fault used up'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(store.load(0)?.state.toString()).toBe('fault used up');
    await store.exclusive(async () => undefined);
  });
});
