import type { AuditAnchor } from '../../audit/schema.js';
import { type Db, openDatabase } from './database.js';
import { refuseNewer } from './schema.js';

/** Rows per page read: big enough that a 100,000-entry audit log is a few dozen pages. */
const PAGE = 5_000;

/**
 * A SQLite deployment read for `bankops db copy`: its tables page by page, in the order they were
 * written, all of one snapshot (`snapshot`). Refuses a file a newer bankops migrated.
 */
export class SqliteSource {
  readonly #db: Db;

  constructor(readonly file: string) {
    // Read only; a relaxed connection makes no fsync of its own for the migrations' checks.
    this.#db = openDatabase(file, { synchronous: 'NORMAL' });
    try {
      refuseNewer(this.#db, file);
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  has(table: string): boolean {
    return (
      this.#db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !==
      undefined
    );
  }

  /** The columns the table has. */
  columns(table: string): Set<string> {
    return new Set((this.#db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));
  }

  count(table: string): number {
    return (this.#db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  }

  /** The table's rows in pages, in rowid order, each row its `columns`' values in order. */
  *pages(table: string, columns: readonly string[]): Generator<unknown[][]> {
    const read = this.#db
      .prepare(
        `SELECT rowid AS r, ${columns.join(', ')} FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      )
      .raw(true);
    let after = 0;
    for (;;) {
      const rows = read.all(after, PAGE) as unknown[][];
      if (rows.length === 0) return;
      after = rows.at(-1)?.[0] as number;
      // The rowid dropped: each row is the columns asked for.
      yield rows.map((row) => row.slice(1));
      if (rows.length < PAGE) return;
    }
  }

  /** The audit chain's head (none when empty): the copy must end at the same entry. */
  auditHead(): AuditAnchor | undefined {
    if (!this.has('audit_log')) return undefined;
    return this.#db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as
      | AuditAnchor
      | undefined;
  }

  /** Runs `work` reading one snapshot of the file: what other connections commit meanwhile is not seen. */
  async snapshot<T>(work: () => Promise<T>): Promise<T> {
    this.#db.exec('BEGIN');
    try {
      return await work();
    } finally {
      this.#db.exec('COMMIT');
    }
  }

  close(): void {
    this.#db.close();
  }
}
