import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, linkSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fingerprintKeyPath } from '../../app/fingerprint-key.js';
import { openDatabase } from '../../core/db.js';
import { notConfigured } from '../../core/errors.js';
import { cliConfig } from '../config.js';
import { cliIo, EXIT, err, out, UsageError } from '../io.js';

export const DB_HELP = `Usage:
  bankops db backup <file> [--force]

backup writes a consistent copy of the SQLite database (BANKOPS_DB) to <file> with SQLite's online
backup, while bankops serve and other commands go on using it: the copy is the database as it was
at one moment, never half of a change. It says how far it got on stderr, and the file is readable
by its owner only (mode 0600). An existing <file> is left alone unless --force is given. The copy
is written under another name first and moved into place when whole.

The fingerprint key is not in the database: keep BANKOPS_FINGERPRINT_KEY_FILE, or bankops.key
beside the database, with the copy (without it, earlier requests are no longer recognised as
repeats; nothing else is lost).

Exit status: 0 copied, 1 the copy failed, 2 usage, no database, or <file> exists.
`;

/** Pages copied per step: between steps bankops's other connections write as usual. */
const PAGES_PER_STEP = 1024;
/** Everything left, in one step. */
const ALL_PAGES = 0x7fffffff;

export async function dbCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || values.help) {
    out(DB_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  if (sub !== 'backup') throw new UsageError(`unknown subcommand 'db ${sub}'`, DB_HELP);
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
  if (!existsSync(source)) throw notConfigured(`no database at ${source} (BANKOPS_DB) to back up`);
  if (target === source) throw new UsageError('db backup: the copy cannot be the database itself', DB_HELP);
  if (existsSync(target) && !force)
    throw new UsageError(`db backup: ${target} exists; --force replaces it`, DB_HELP);

  // Made empty and private first: SQLite writes into it, and the mode is never wider than 0600.
  const draft = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.partial`);
  closeSync(openSync(draft, 'wx', 0o600));
  const db = openDatabase(source);
  try {
    let shown = -1;
    let left = Number.POSITIVE_INFINITY;
    const done = await db.backup(draft, {
      progress: ({ totalPages, remainingPages }) => {
        const percent = Math.floor(((totalPages - remainingPages) / totalPages) * 100);
        if (percent !== shown)
          err(`backup: ${percent}% (${totalPages - remainingPages} of ${totalPages} pages)\n`);
        shown = percent;
        // A write by another connection between steps starts the copy over. Once that happened,
        // the rest goes in one step, in one read transaction: a busy database is copied all the same.
        const restarted = remainingPages >= left;
        left = remainingPages;
        return restarted ? ALL_PAGES : PAGES_PER_STEP;
      },
    });
    err(`backup: 100% (${done.totalPages} of ${done.totalPages} pages)\n`);
    db.close();
    if (force) renameSync(draft, target);
    else linkInPlace(draft, target);
    const size = statSync(target).size;
    out(`backed up ${source} to ${target}: ${done.totalPages} pages, ${size} bytes\n`);
    const key = config.fingerprintKeyFile ?? fingerprintKeyPath(source);
    out(`the fingerprint key is not in the copy: keep ${key} with it\n`);
    return EXIT.ok;
  } catch (error) {
    rmSync(draft, { force: true });
    rmSync(`${draft}-journal`, { force: true });
    throw error;
  } finally {
    if (db.open) db.close();
  }
}
