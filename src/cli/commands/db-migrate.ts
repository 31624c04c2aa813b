import { parseArgs } from 'node:util';
import { migrateSqlite } from '../../app/sqlite-schema.js';
import { openDatabase } from '../../core/db.js';
import { migrate } from '../../core/store/postgres/migrate.js';
import { runtimeGrantsSql } from '../../core/store/postgres/roles.js';
import { databaseUrlOf } from '../../core/store/postgres/url.js';
import { cliConfig } from '../config.js';
import { cliIo, EXIT, out, UsageError } from '../io.js';
import { DB_HELP } from './db.js';
import { commandPool, refusalsExitOne } from './db-target.js';

/** `bankops db migrate`: PostgreSQL when a URL is given or configured, else the SQLite file. */
export async function dbMigrate(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { url: { type: 'string' }, grant: { type: 'string' }, 'print-grants': { type: 'string' } },
  });
  if (positionals.length > 0) throw new UsageError('db migrate takes no arguments', DB_HELP);
  const printGrants = values['print-grants'];
  if (printGrants !== undefined && values.grant !== undefined)
    throw new UsageError(
      '--print-grants prints the grants and connects to nothing: give it without --grant (which applies them while migrating)',
      DB_HELP,
    );
  if (printGrants !== undefined) {
    out(`${runtimeGrantsSql(printGrants)}\n`);
    return EXIT.ok;
  }
  const url = values.url ?? databaseUrlOf(cliIo().env);
  if (url !== undefined) return refusalsExitOne(() => migratePostgres(url, values.grant));
  if (values.grant !== undefined) throw new UsageError('--grant is for PostgreSQL (--url)', DB_HELP);
  return refusalsExitOne(async () => migrateFile());
}

async function migratePostgres(url: string, grant: string | undefined): Promise<number> {
  const store = commandPool(url, 'db migrate');
  try {
    const result = await migrate(store, grant === undefined ? {} : { runtimeRole: grant });
    if (result.applied.length === 0) out(`${store.where}: up to date (schema version ${result.to})\n`);
    else
      out(
        `${store.where}: applied ${result.applied.map((v) => `version ${v}`).join(', ')} (schema version ${result.from} → ${result.to})\n`,
      );
    if (grant !== undefined) out(`granted the runtime role ${grant}: the audit log read and append only\n`);
    return EXIT.ok;
  } finally {
    await store.pool.end();
  }
}

function migrateFile(): number {
  const file = cliConfig().databasePath;
  const db = openDatabase(file);
  try {
    const applied = migrateSqlite(db, file);
    out(applied.length === 0 ? `${file}: up to date\n` : `${file}: applied ${applied.join(', ')}\n`);
    return EXIT.ok;
  } finally {
    db.close();
  }
}
