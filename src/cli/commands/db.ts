import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, linkSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseAdmin, noSqliteFile } from '../../app/database.js';
import { fingerprintKeyPath } from '../../app/fingerprint-key.js';
import { notConfigured } from '../../core/errors.js';
import { cliConfig } from '../config.js';
import { cliIo, EXIT, err, out, UsageError } from '../io.js';
import { dbCopy } from './db-copy.js';
import { dbFingerprintKey } from './db-fingerprint-key.js';
import { dbMigrate } from './db-migrate.js';
import { unknownSubcommand } from './table.js';

export const DB_HELP = `Usage:
  bankops db migrate [--url postgres://…] [--grant <role>]
  bankops db migrate --print-grants <role>
  bankops db copy --to postgres://…
  bankops db backup <file> [--force]
  bankops db fingerprint-key --adopt

migrate brings the database to the schema this bankops knows and prints what it applied, or "up
to date": PostgreSQL when BANKOPS_DATABASE_URL (or --url) names one, else the SQLite file
(BANKOPS_DB). Run it as the role that owns the tables; --grant <role> then gives the runtime role
its grants (the audit log: read and append only). A database migrated by a newer bankops is
refused before anything changes. --print-grants <role> prints those grants as SQL and connects to
nothing.

copy moves the SQLite deployment (BANKOPS_DB) into an empty PostgreSQL database (migrating it
first if it has no tables), in one transaction: approvals, votes, the change feed and its cursors,
idempotency keys, the audit chain (verified on PostgreSQL before the copy commits), passkeys,
payees, cards, webhook keys and Slack's stores. A database holding any row is refused. Stop
bankops serve first: what it writes after the copy started is not copied. Progress goes to
stderr, the rows per table to stdout.

backup writes a consistent copy of the SQLite database (BANKOPS_DB) to <file> with SQLite's online
backup, while bankops serve and other commands go on using it: the copy is the database as it was
at one moment, never half of a change. It says how far it got on stderr, and the file is readable
by its owner only (mode 0600). An existing <file> is left alone unless --force is given. The copy
is written under another name first and moved into place when whole.

fingerprint-key --adopt makes the key of BANKOPS_FINGERPRINT_KEY_FILE (or bankops.key beside the
SQLite file) the one every process on the database must use. The database keeps only a check
value of it (an HMAC of a fixed label, which reveals nothing of the key); a process whose key does
not match refuses to start. Rotating the key on purpose: stop every process, make the new file,
run this with it, then start every process with it (docs/deploy.md, "Rotating the fingerprint
key").

The fingerprint key is not in the database: keep BANKOPS_FINGERPRINT_KEY_FILE, or bankops.key
beside the database, with the copy (without it, earlier requests are no longer recognised as
repeats; nothing else is lost).

Exit status: 0 done, 1 failed or refused (a newer schema, a target that is not empty), 2 usage,
no database, or <file> exists.
`;

export async function dbCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || rest.includes('--help')) {
    out(DB_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  switch (sub) {
    case 'backup':
      return backupCommand(rest);
    case 'migrate':
      return withDbHelp(() => dbMigrate(rest));
    case 'copy':
      return withDbHelp(() => dbCopy(rest));
    case 'fingerprint-key':
      return withDbHelp(() => dbFingerprintKey(rest));
    default:
      throw unknownSubcommand('db', sub, DB_HELP);
  }
}

/** The subcommands' usage errors carry this command's help (their modules do not import it). */
async function withDbHelp(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError && error.help === undefined) throw new UsageError(error.message, DB_HELP);
    throw error;
  }
}

function backupCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { force: { type: 'boolean' } },
  });
  const [target, ...extra] = positionals;
  if (target === undefined || extra.length > 0)
    throw new UsageError('db backup takes one file to write', DB_HELP);
  return backup(resolve(cliIo().cwd, target), values.force === true);
}

/** Linked, not renamed: a file that appeared meanwhile is not replaced without --force. */
function linkInPlace(draft: string, target: string): void {
  try {
    linkSync(draft, target);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST')
      throw new UsageError(`db backup: ${target} appeared meanwhile; --force replaces it`, DB_HELP);
    throw error;
  }
  rmSync(draft);
}

async function backup(target: string, force: boolean): Promise<number> {
  const config = cliConfig();
  const source = resolve(config.databasePath);
  if (!existsSync(source)) {
    // Before a move the SQLite file is still there, and backed up; after it, the data is elsewhere.
    throw notConfigured(noSqliteFile(config, 'back up'));
  }
  if (!existsSync(dirname(target)))
    throw new UsageError(`db backup: no directory ${dirname(target)}`, DB_HELP);
  if (target === source) throw new UsageError('db backup: the copy cannot be the database itself', DB_HELP);
  if (existsSync(target) && !force)
    throw new UsageError(`db backup: ${target} exists; --force replaces it`, DB_HELP);

  const admin = await databaseAdmin({ file: source });
  if (admin.backup === undefined) throw new UsageError('db backup copies a SQLite file', DB_HELP);
  // Made empty and private first: SQLite writes into it, and the mode is never wider than 0600.
  const draft = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.partial`);
  closeSync(openSync(draft, 'wx', 0o600));
  try {
    let shown = -1;
    const done = await admin.backup(draft, (copied, total) => {
      const percent = Math.floor((copied / total) * 100);
      if (percent !== shown) err(`backup: ${percent}% (${copied} of ${total} pages)\n`);
      shown = percent;
    });
    err(`backup: 100% (${done.pages} of ${done.pages} pages)\n`);
    if (force) renameSync(draft, target);
    else linkInPlace(draft, target);
    const size = statSync(target).size;
    out(`backed up ${source} to ${target}: ${done.pages} pages, ${size} bytes\n`);
    const key = config.fingerprintKeyFile ?? fingerprintKeyPath(source);
    out(`the fingerprint key is not in the copy: keep ${key} with it\n`);
    return EXIT.ok;
  } catch (error) {
    rmSync(draft, { force: true });
    rmSync(`${draft}-journal`, { force: true });
    throw error;
  } finally {
    await admin.close();
  }
}
