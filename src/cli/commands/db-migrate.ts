import { parseArgs } from 'node:util';
import { databaseAdmin, databaseUrlOf, runtimeGrants } from '../../app/database.js';
import { cliConfig } from '../config.js';
import { cliIo, EXIT, out, UsageError } from '../io.js';
import { refusalsExitOne } from './db-target.js';

/** `bankops db migrate`: PostgreSQL when a URL is given or configured, else the SQLite file. */
export async function dbMigrate(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { url: { type: 'string' }, grant: { type: 'string' }, 'print-grants': { type: 'string' } },
  });
  if (positionals.length > 0) throw new UsageError('db migrate takes no arguments');
  const printGrants = values['print-grants'];
  if (printGrants !== undefined && values.grant !== undefined)
    throw new UsageError(
      '--print-grants prints the grants and connects to nothing: give it without --grant (which applies them while migrating)',
    );
  if (printGrants !== undefined) {
    out(`${await runtimeGrants(printGrants)}\n`);
    return EXIT.ok;
  }
  // A URL given or configured names PostgreSQL, the only database with roles to grant; else the file.
  const url = values.url ?? databaseUrlOf(cliIo().env);
  if (url === undefined && values.grant !== undefined)
    throw new UsageError('--grant is for PostgreSQL (--url)');
  const grant = values.grant;
  return refusalsExitOne(async () => {
    const admin = await databaseAdmin(
      url === undefined ? { file: cliConfig().databasePath } : { url, name: 'db migrate' },
    );
    try {
      const { applied, version } = await admin.migrate(grant === undefined ? {} : { grant });
      if (version === undefined)
        out(
          applied.length === 0
            ? `${admin.where}: up to date\n`
            : `${admin.where}: applied ${applied.join(', ')}\n`,
        );
      else if (applied.length === 0) out(`${admin.where}: up to date (schema version ${version.to})\n`);
      else
        out(
          `${admin.where}: applied ${applied.join(', ')} (schema version ${version.from} → ${version.to})\n`,
        );
      if (grant !== undefined) out(`granted the runtime role ${grant}: the audit log read and append only\n`);
      return EXIT.ok;
    } finally {
      await admin.close();
    }
  });
}
