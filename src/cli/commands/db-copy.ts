import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { databaseAdmin, isPostgresUrl, noSqliteFile } from '../../app/database.js';
import { notConfigured } from '../../core/errors.js';
import type { CopyProgress } from '../../core/store/backend.js';
import { cliConfig } from '../config.js';
import { EXIT, err, out, UsageError } from '../io.js';
import { refusalsExitOne } from './db-target.js';

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
  if (to === undefined) throw new UsageError('db copy takes --to postgres://…');
  if (positionals.length > 0)
    throw new UsageError(`db copy takes only --to postgres://…, not '${positionals.join(' ')}'`);
  if (!isPostgresUrl(to)) throw new UsageError('db copy --to takes a postgres:// or postgresql:// URL');
  const config = cliConfig();
  const file = config.databasePath;
  if (!existsSync(file)) throw notConfigured(noSqliteFile(config, 'copy'));
  return refusalsExitOne(async () => {
    const target = await databaseAdmin({ url: to, name: 'db copy' });
    try {
      if (target.copyFrom === undefined)
        throw new UsageError('db copy --to takes a postgres:// or postgresql:// URL');
      let started = performance.now();
      const result = await target.copyFrom(file, {
        migrated: ({ applied, version }) => {
          if (applied.length > 0) err(`copy: migrated ${target.where} to schema version ${version?.to}\n`);
          started = performance.now();
        },
        progress: reporter(),
      });
      const seconds = (performance.now() - started) / 1000;
      const total = result.rows.reduce((sum, t) => sum + t.rows, 0);
      out(`copied ${file} to ${target.where}: ${total} rows in ${seconds.toFixed(1)} s\n`);
      for (const { table, rows } of result.rows) out(`  ${table.padEnd(24)} ${rows}\n`);
      out(
        `audit chain verified on PostgreSQL: ${result.audit.entries} entries, head ${result.audit.head.seq} ${result.audit.head.hash}\n`,
      );
      return EXIT.ok;
    } finally {
      await target.close();
    }
  });
}
