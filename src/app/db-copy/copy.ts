import type pg from 'pg';
import type { AuditAnchor } from '../../core/audit/schema.js';
import type { Db } from '../../core/db.js';
import { CodedError, ErrorCode } from '../../core/errors.js';
import { auditHead } from '../../core/store/postgres/audit.js';
import { verifyAuditLog } from '../../core/store/postgres/audit-verify.js';
import type { PgStore } from '../../core/store/postgres/pool.js';
import { withTransaction } from '../../core/store/postgres/transaction.js';
import { COPIED_TABLES, type CopiedTable, insertSql, TARGET_ONLY_TABLES } from './tables.js';

/** Rows per insert: big enough that a 100,000-entry audit log is a few dozen statements. */
const BATCH = 5_000;

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
}

export interface CopyResult {
  /** Rows per table, in the order copied. */
  rows: { table: string; rows: number }[];
  /** The audit chain as verified on PostgreSQL. */
  audit: { entries: number; head: AuditAnchor };
}

/** A refusal or a failed check: nothing was written to the target. */
export const copyFailed = (message: string): CodedError =>
  new CodedError({ code: ErrorCode.Internal, message, operation: 'db copy' });

const hasTable = (db: Db, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

/** A table the SQLite file has but without a column this code copies: an older schema. */
function checkColumns(db: Db, table: CopiedTable, file: string): void {
  const present = new Set((db.pragma(`table_info(${table.name})`) as { name: string }[]).map((c) => c.name));
  const missing = table.columns.filter((c) => !present.has(c));
  if (missing.length > 0) {
    throw copyFailed(
      `${file}: ${table.name} has no ${missing.join(', ')}: run \`bankops db migrate\` on it first (BANKOPS_DATABASE_URL unset)`,
    );
  }
}

/** Refuses a target holding any row, naming the first table that has some. */
async function requireEmpty(client: pg.PoolClient, where: string): Promise<void> {
  for (const name of [...COPIED_TABLES.map((t) => t.name), ...TARGET_ONLY_TABLES]) {
    const found = await client.query(`SELECT 1 FROM ${name} LIMIT 1`);
    if (found.rows.length > 0) {
      throw copyFailed(
        `the database at ${where} is not empty (${name} has rows): db copy fills an empty one`,
      );
    }
  }
}

/** The table's rows in pages of `BATCH`, in rowid order (the order they were written). */
function* pages(db: Db, table: CopiedTable): Generator<unknown[][]> {
  const read = db
    .prepare(
      `SELECT rowid AS r, ${table.columns.join(', ')} FROM ${table.name} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    )
    .raw(true);
  let after = 0;
  for (;;) {
    const rows = read.all(after, BATCH) as unknown[][];
    if (rows.length === 0) return;
    after = rows.at(-1)?.[0] as number;
    yield rows;
    if (rows.length < BATCH) return;
  }
}

/** Column arrays of a page (the rowid dropped): one parameter per column. */
const columnsOf = (rows: unknown[][], width: number): unknown[][] =>
  Array.from({ length: width }, (_, i) => rows.map((row) => row[i + 1] ?? null));

async function copyTable(
  db: Db,
  client: pg.PoolClient,
  table: CopiedTable,
  progress: (p: CopyProgress) => void,
): Promise<number> {
  const total = (db.prepare(`SELECT count(*) AS n FROM ${table.name}`).get() as { n: number }).n;
  const sql = insertSql(table);
  let copied = 0;
  if (total === 0) progress({ table: table.name, copied, total });
  for (const rows of pages(db, table)) {
    const inserted = await client.query(sql, columnsOf(rows, table.columns.length));
    copied += inserted.rowCount ?? 0;
    progress({ table: table.name, copied, total });
  }
  if (copied !== total) throw copyFailed(`${table.name}: ${total} rows read but ${copied} written`);
  if (table.identity !== undefined && copied > 0) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), (SELECT max(${table.identity}) FROM ${table.name}))`,
      [table.name, table.identity],
    );
  }
  return copied;
}

/** The SQLite chain's head (none when empty): the copy must end at the same entry. */
function sqliteHead(db: Db): AuditAnchor | undefined {
  if (!hasTable(db, 'audit_log')) return undefined;
  return db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as
    | AuditAnchor
    | undefined;
}

/**
 * Copies every table bankops keeps in the SQLite file `db` into the migrated, empty PostgreSQL
 * database `target`, in one transaction there, reading one snapshot of the file. Before it
 * commits, the audit chain is verified on PostgreSQL by the same check as `bankops audit verify`,
 * anchored at the SQLite chain's head; any failure rolls the whole copy back.
 */
export async function copySqliteToPostgres(
  db: Db,
  file: string,
  target: PgStore,
  progress: (p: CopyProgress) => void = () => undefined,
): Promise<CopyResult> {
  // A store never used (Slack never configured) may have no table in the file: nothing to copy.
  const present = new Set(COPIED_TABLES.filter((table) => hasTable(db, table.name)).map((t) => t.name));
  for (const table of COPIED_TABLES) if (present.has(table.name)) checkColumns(db, table, file);
  db.exec('BEGIN');
  try {
    const anchor = sqliteHead(db);
    return await withTransaction(
      target,
      async (client) => {
        const names = [...COPIED_TABLES.map((t) => t.name), ...TARGET_ONLY_TABLES];
        // No replica writes meanwhile, and a second copy waits, then finds rows.
        await client.query(`LOCK TABLE ${names.join(', ')} IN EXCLUSIVE MODE`);
        await requireEmpty(client, target.where);
        const rows: CopyResult['rows'] = [];
        for (const table of COPIED_TABLES) {
          let copied = 0;
          if (present.has(table.name)) copied = await copyTable(db, client, table, progress);
          else progress({ table: table.name, copied, total: 0 });
          rows.push({ table: table.name, rows: copied });
        }
        const verified = await verifyAuditLog(client, anchor);
        if (!verified.ok) {
          throw copyFailed(
            `the audit chain does not verify on PostgreSQL (${verified.reason}); nothing was copied`,
          );
        }
        const head = await auditHead(client);
        return { rows, audit: { entries: verified.entries, head } };
      },
      { attempts: 1 },
    );
  } finally {
    db.exec('COMMIT');
  }
}
