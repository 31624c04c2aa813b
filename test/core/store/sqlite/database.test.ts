import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../../src/core/store/sqlite/database.js';
import { tempDir } from '../../../helpers/audit.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('openDatabase', () => {
  it('creates a private parent directory and file and sets the pragmas', () => {
    const file = join(tmp.dir, 'nested', 'deeper', 'core.db');
    const db = openDatabase(file);
    try {
      expect(statSync(join(tmp.dir, 'nested')).mode & 0o777).toBe(0o700);
      expect(statSync(join(tmp.dir, 'nested', 'deeper')).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      db.exec('CREATE TABLE t (x INTEGER)');
      expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    } finally {
      db.close();
    }
  });

  it('opens with synchronous NORMAL on request', () => {
    const db = openDatabase(join(tmp.dir, 'normal.db'), { synchronous: 'NORMAL' });
    try {
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe('migrate', () => {
  it('applies a named migration once and records it', () => {
    const db = openDatabase(join(tmp.dir, 'migrate.db'));
    try {
      const statements = ['CREATE TABLE things (id TEXT PRIMARY KEY)', "INSERT INTO things VALUES ('a')"];
      expect(migrate(db, 'test/001-things', statements)).toBe(true);
      expect(migrate(db, 'test/001-things', statements)).toBe(false);
      expect(db.prepare('SELECT COUNT(*) FROM things').pluck().get()).toBe(1);
      const row = db.prepare('SELECT name, applied_at FROM schema_migrations').get() as {
        name: string;
        applied_at: string;
      };
      expect(row.name).toBe('test/001-things');
      expect(row.applied_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(migrate(db, 'test/002-more', ['ALTER TABLE things ADD COLUMN n INTEGER'])).toBe(true);
    } finally {
      db.close();
    }
  });

  it('rolls a failing migration back entirely, leaving it unrecorded', () => {
    const db = openDatabase(join(tmp.dir, 'failing.db'));
    try {
      migrate(db, 'test/000-ok', ['CREATE TABLE ok (x INTEGER)']);
      expect(() => migrate(db, 'test/bad', ['CREATE TABLE half (x INTEGER)', 'THIS IS NOT SQL'])).toThrow();
      expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
      expect(db.prepare("SELECT COUNT(*) FROM schema_migrations WHERE name = 'test/bad'").pluck().get()).toBe(
        0,
      );
      expect(migrate(db, 'test/bad', ['CREATE TABLE half (x INTEGER)'])).toBe(true);
    } finally {
      db.close();
    }
  });

  it('keeps schema and data across reopening', () => {
    const file = join(tmp.dir, 'reopen.db');
    const first = openDatabase(file);
    migrate(first, 'test/001', ['CREATE TABLE kept (v TEXT)', "INSERT INTO kept VALUES ('x')"]);
    first.close();
    const second = openDatabase(file);
    try {
      expect(migrate(second, 'test/001', ['CREATE TABLE kept (v TEXT)'])).toBe(false);
      expect(second.prepare('SELECT v FROM kept').pluck().get()).toBe('x');
    } finally {
      second.close();
    }
  });
});
