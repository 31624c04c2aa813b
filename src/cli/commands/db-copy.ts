import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type CopyProgress, copyFailed, copySqliteToPostgres } from '../../app/db-copy/copy.js';
import { processesWithOpen } from '../../app/db-copy/open-elsewhere.js';
import { refuseNewer } from '../../app/sqlite-schema.js';
import { openDatabase } from '../../core/db.js';
import { notConfigured } from '../../core/errors.js';
import { migrate } from '../../core/store/postgres/migrate.js';
import { isPostgresUrl } from '../../core/store/postgres/url.js';
import { cliConfig } from '../config.js';
import { EXIT, err, out, UsageError } from '../io.js';
import { DB_HELP } from './db.js';
import { commandPool, refusalsExitOne } from './db-target.js';

/** A progress line every this many rows of a table, and one when it is done. */
const SAY_EVERY = 20_000;

function reporter(): (p: CopyProgress) => void {
  let said = 0;
  return ({ table, copied, total }) => {
    if (copied === total || copied - said >= SAY_EVERY) {
      err(`copy: ${table} ${copied} of ${total} rows\n`);
      said = copied === total ? 0 : copied;
    }
  };
}

/** `bankops db copy --to postgres://…`: the SQLite deployment into an empty PostgreSQL database. */
export async function dbCopy(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { to: { type: 'string' } },
  });
  const to = values.to;
  if (to === undefined) throw new UsageError('db copy takes --to postgres://…', DB_HELP);
  if (positionals.length > 0)
    throw new UsageError(`db copy takes only --to postgres://…, not '${positionals.join(' ')}'`, DB_HELP);
  if (!isPostgresUrl(to))
    throw new UsageError('db copy --to takes a postgres:// or postgresql:// URL', DB_HELP);
  const config = cliConfig();
  const file = config.databasePath;
  if (!existsSync(file)) {
    const where =
      config.databaseUrl === undefined
        ? ''
        : ': the copy reads the SQLite file of BANKOPS_DB (this configuration also names BANKOPS_DATABASE_URL, which db copy does not read)';
    throw notConfigured(`no database at ${file} (BANKOPS_DB) to copy${where}`);
  }
  return refusalsExitOne(async () => {
    const openers = processesWithOpen(file);
    if (openers.length > 0) {
      const list = openers.map(({ pid, name }) => `pid ${pid}${name === '' ? '' : ` (${name})`}`);
      throw copyFailed(
        `${file} is open in ${list.join(', ')}: stop every process using it first (what a running serve writes after the copy would stay behind; docs/deploy.md, "Moving from SQLite to PostgreSQL")`,
      );
    }
    const db = openDatabase(file, { synchronous: 'NORMAL' });
    const target = commandPool(to, 'db copy');
    try {
      refuseNewer(db, file);
      const migrated = await migrate(target);
      if (migrated.applied.length > 0)
        err(`copy: migrated ${target.where} to schema version ${migrated.to}\n`);
      const started = performance.now();
      const result = await copySqliteToPostgres(db, file, target, reporter());
      const seconds = (performance.now() - started) / 1000;
      const total = result.rows.reduce((sum, t) => sum + t.rows, 0);
      out(`copied ${file} to ${target.where}: ${total} rows in ${seconds.toFixed(1)} s\n`);
      for (const { table, rows } of result.rows) out(`  ${table.padEnd(24)} ${rows}\n`);
      out(
        `audit chain verified on PostgreSQL: ${result.audit.entries} entries, head ${result.audit.head.seq} ${result.audit.head.hash}\n`,
      );
      return EXIT.ok;
    } finally {
      db.close();
      await target.pool.end();
    }
  });
}
