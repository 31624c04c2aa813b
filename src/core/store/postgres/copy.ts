import type pg from 'pg';
import { CodedError, ErrorCode } from '../../errors.js';
import type { CopyEvents, CopyProgress, CopyResult, Migrated } from '../backend.js';
import { SqliteSource } from '../sqlite/export.js';
import { processesWithOpen } from '../sqlite/open-elsewhere.js';
import { auditHead } from './audit.js';
import { verifyAuditLog } from './audit-verify.js';
import { COPIED_TABLES, type CopiedTable, insertSql, TARGET_ONLY_TABLES } from './copy-tables.js';
import { sqlState } from './errors.js';
import type { PgStore } from './pool.js';
import { withTransaction } from './transaction.js';

/** A refusal or a failed check: nothing was written to the target. */
export const copyFailed = (message: string): CodedError =>
  new CodedError({ code: ErrorCode.Internal, message, operation: 'db copy' });

/**
 * The copy locks and fills every table, the audit log's included, which the runtime role may not
 * (it may only read and append the audit log): refused by PostgreSQL, it is told in one line to run
 * the copy as the owner, as `db migrate` tells it.
 */
async function ownerOnly<T>(where: string, copy: () => Promise<T>): Promise<T> {
  try {
    return await copy();
  } catch (error) {
    if (sqlState(error) !== '42501') throw error;
    throw new CodedError({
      code: ErrorCode.Internal,
      message: `db copy must run as the role that owns the tables at ${where} (the one that runs bankops db migrate): give --to that role's URL; nothing was copied (${(error as Error).message})`,
      operation: 'db copy',
      original: error,
    });
  }
}

/** A table the SQLite file has but without a column this code copies: an older schema. */
function checkColumns(source: SqliteSource, table: CopiedTable): void {
  const present = source.columns(table.name);
  const missing = table.columns.filter((c) => !present.has(c));
  if (missing.length > 0) {
    throw copyFailed(
      `${source.file}: ${table.name} has no ${missing.join(', ')}: run \`bankops db migrate\` on it first (BANKOPS_DATABASE_URL unset)`,
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

/** Column arrays of a page: one parameter per column. */
const columnsOf = (rows: unknown[][], width: number): unknown[][] =>
  Array.from({ length: width }, (_, i) => rows.map((row) => row[i] ?? null));

async function copyTable(
  source: SqliteSource,
  client: pg.PoolClient,
  table: CopiedTable,
  progress: (p: CopyProgress) => void,
): Promise<number> {
  const total = source.count(table.name);
  const sql = insertSql(table);
  let copied = 0;
  if (total === 0) progress({ table: table.name, copied, total });
  for (const rows of source.pages(table.name, table.columns)) {
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

/**
 * Copies every table bankops keeps in the SQLite file into the empty PostgreSQL database `target`
 * (`bankops db copy`), migrating it first, in one transaction there, reading one snapshot of the
 * file. Refused while another process has the file open (what it writes after the copy would stay
 * behind). Before it commits, the audit chain is verified on PostgreSQL by the same check as
 * `bankops audit verify`, anchored at the SQLite chain's head; any failure rolls the whole copy back.
 */
export async function copyIntoPostgres(
  target: PgStore,
  file: string,
  migrate: () => Promise<Migrated>,
  events: CopyEvents,
): Promise<CopyResult> {
  const openers = processesWithOpen(file);
  if (openers.length > 0) {
    const list = openers.map(({ pid, name }) => `pid ${pid}${name === '' ? '' : ` (${name})`}`);
    throw copyFailed(
      `${file} is open in ${list.join(', ')}: stop every process using it first (what a running serve writes after the copy would stay behind; docs/deploy.md, "Moving from SQLite to PostgreSQL")`,
    );
  }
  const source = new SqliteSource(file);
  try {
    const migrated = await migrate();
    events.migrated(migrated);
    // A store never used (Slack never configured) may have no table in the file: nothing to copy.
    const present = new Set(COPIED_TABLES.filter((table) => source.has(table.name)).map((t) => t.name));
    for (const table of COPIED_TABLES) if (present.has(table.name)) checkColumns(source, table);
    const copied = await ownerOnly(target.where, () =>
      source.snapshot(() => {
        const anchor = source.auditHead();
        return withTransaction(
          target,
          async (client) => {
            const names = [...COPIED_TABLES.map((t) => t.name), ...TARGET_ONLY_TABLES];
            // No replica writes meanwhile, and a second copy waits, then finds rows.
            await client.query(`LOCK TABLE ${names.join(', ')} IN EXCLUSIVE MODE`);
            await requireEmpty(client, target.where);
            const rows: CopyResult['rows'] = [];
            for (const table of COPIED_TABLES) {
              let count = 0;
              if (present.has(table.name)) count = await copyTable(source, client, table, events.progress);
              else events.progress({ table: table.name, copied: count, total: 0 });
              rows.push({ table: table.name, rows: count });
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
      }),
    );
    return { ...copied, migrated };
  } finally {
    source.close();
  }
}
