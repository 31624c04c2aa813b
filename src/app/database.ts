import type { Config } from '../core/config.js';
import { notConfigured } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { optional } from '../core/optional.js';
import type { Backend, BackendAdmin } from '../core/store/backend.js';
import { describeDatabase } from '../core/store/postgres/url.js';
import {
  fingerprintKey,
  fingerprintKeyPath,
  fingerprintKeyWords,
  requireSharedKey,
} from './fingerprint-key.js';
import { sandboxDatabasePath } from './shared-sandbox.js';

export { databaseUrlOf, isPostgresUrl } from '../core/store/postgres/url.js';
export type { Backend, BackendAdmin };

/**
 * The one place that chooses the backend (DESIGN decision 18): `BANKOPS_DATABASE_URL` set,
 * PostgreSQL, migrated first; unset, the SQLite file, as it always was. PostgreSQL's modules (and
 * its driver) are loaded only then: SQLite users never load them.
 */
export async function openBackend(config: Config, log?: Logger): Promise<Backend> {
  if (config.databaseUrl === undefined) {
    const { openSqlite } = await import('../core/store/sqlite/backend.js');
    return openSqlite(config.databasePath);
  }
  const { openPostgres } = await import('../core/store/postgres/backend.js');
  return openPostgres(config.databaseUrl, log);
}

/** Why this configuration cannot start: PostgreSQL without the operator's fingerprint key file. */
export function missingFingerprintKey(config: Config): string | undefined {
  if (config.databaseUrl === undefined || config.fingerprintKeyFile !== undefined) return undefined;
  return 'BANKOPS_FINGERPRINT_KEY_FILE is required with BANKOPS_DATABASE_URL: every replica reads the same key and it is never stored in the database; make one with `umask 077; openssl rand -hex 32 > FILE`';
}

/**
 * The backend and the fingerprint key kept outside it. With PostgreSQL the key comes from
 * `BANKOPS_FINGERPRINT_KEY_FILE`, required: replicas share it and it is never in the database.
 * With SQLite it stays beside the file as before. A key other than the one the database's first
 * process recorded (its check value) is refused.
 */
export async function openStores(
  config: Config,
  log: Logger,
): Promise<{ backend: Backend; fingerprintKey: Buffer }> {
  const missing = missingFingerprintKey(config);
  if (missing !== undefined) throw notConfigured(missing);
  // The operator's file when named (always, with PostgreSQL); else the one beside the SQLite file.
  const key = fingerprintKey(config.databasePath, config.fingerprintKeyFile);
  const backend = await openBackend(config, log);
  try {
    await requireSharedKey(
      backend.keyChecks,
      key,
      fingerprintKeyWords(config.databasePath, config.fingerprintKeyFile),
    );
  } catch (error) {
    await backend.close();
    throw error;
  }
  return { backend, fingerprintKey: key };
}

/**
 * The administration of the database a command names, opening nothing yet: `{url}` PostgreSQL
 * (a small pool named `bankops <name>`, each wait bounded by `waitMs` when given), `{file}` the
 * SQLite file.
 */
export async function databaseAdmin(
  target: { file: string } | { url: string; name: string; waitMs?: number },
): Promise<BackendAdmin> {
  if ('file' in target) {
    const { sqliteAdmin } = await import('../core/store/sqlite/backend.js');
    return sqliteAdmin(target.file);
  }
  const { postgresAdminAt } = await import('../core/store/postgres/backend.js');
  const { waitMs } = target;
  return postgresAdminAt(
    target.url,
    target.name,
    waitMs === undefined
      ? {}
      : { connectionTimeoutMs: waitMs, statementTimeoutMs: waitMs, queryTimeoutMs: waitMs + 500 },
  );
}

/** The configured database's administration (`config check`: each wait bounded by `waitMs`). */
export function configuredAdmin(config: Config, name: string, waitMs?: number): Promise<BackendAdmin> {
  return config.databaseUrl === undefined
    ? databaseAdmin({ file: config.databasePath })
    : databaseAdmin({ url: config.databaseUrl, name, ...optional('waitMs', waitMs) });
}

/** The runtime role's grants as SQL, for a DBA who applies them by hand (connects to nothing). */
export async function runtimeGrants(role: string): Promise<string> {
  const { runtimeGrantsSql } = await import('../core/store/postgres/backend.js');
  return runtimeGrantsSql(role);
}

/**
 * Why a command that reads the SQLite file (`db backup`, `db copy`) finds none at `BANKOPS_DB`:
 * after a move to PostgreSQL the data is elsewhere, and that is said.
 */
export function noSqliteFile(config: Config, action: 'back up' | 'copy'): string {
  const file = config.databasePath;
  if (config.databaseUrl === undefined) return `no database at ${file} (BANKOPS_DB) to ${action}`;
  return action === 'back up'
    ? `no database at ${file} (BANKOPS_DB) to back up: db backup copies the SQLite file, and this configuration keeps its data in PostgreSQL (BANKOPS_DATABASE_URL); back that up with pg_dump (docs/deploy.md, "Backups")`
    : `no database at ${file} (BANKOPS_DB) to copy: the copy reads the SQLite file of BANKOPS_DB (this configuration also names BANKOPS_DATABASE_URL, which db copy does not read)`;
}

/** Where the audit log and approvals are kept, and the fingerprint key (`config check`). */
export function storedIn(config: Config): string {
  if (config.databaseUrl === undefined)
    return `audit log in ${config.databasePath}, its key in ${config.fingerprintKeyFile ?? fingerprintKeyPath(config.databasePath)}`;
  const key = config.fingerprintKeyFile ?? 'BANKOPS_FINGERPRINT_KEY_FILE unset (required with PostgreSQL)';
  return `audit log and approvals in PostgreSQL at ${describeDatabase(config.databaseUrl)}, the key in ${key}`;
}

/**
 * The database the words "not found" are about: `the SQLite file /…/bankops.db` or `PostgreSQL at
 * host:5432/bankops` (never a password). A terminal without a replica's variables uses a local file:
 * every "no approval …" of the CLI says which store it looked in.
 */
export const storeWords = (config: Pick<Config, 'databaseUrl' | 'databasePath'>): string =>
  config.databaseUrl === undefined
    ? `the SQLite file ${config.databasePath}`
    : `PostgreSQL at ${describeDatabase(config.databaseUrl)}`;

/** The service a configuration talks to: the embedded sandbox (its state file) or a base URL. */
export const serviceWords = (config: Config): string =>
  config.mode === 'embedded'
    ? `the embedded sandbox (state in ${sandboxDatabasePath(config.databasePath)})`
    : `the service at ${config.service.baseUrl}`;

/** The configured database, for a log line: the SQLite file, or `host:port/db` (never a password). */
export const databaseNamed = (config: Config): string =>
  config.databaseUrl === undefined ? config.databasePath : describeDatabase(config.databaseUrl);

/**
 * What `bankops serve` says about where its data is: the database and the fingerprint key, a
 * warning when the role it logs in as may change the audit log (asked of the database once, never
 * a reason not to start), and, for an embedded sandbox, whether replicas share the database.
 */
export async function servedFrom(
  config: Config,
  backend: Backend,
): Promise<{ files: string[]; guard?: string; sandboxNote?: string }> {
  const db = config.databasePath;
  if (config.databaseUrl === undefined) {
    if (db === ':memory:') return { files: [] };
    return {
      files: [
        `audit log and approvals in ${db}`,
        `${fingerprintKeyPath(db)}: the key that fingerprints secret inputs (PINs, codes) so repeats are recognised without storing them; keep it with the database, private`,
      ],
    };
  }
  const guard = await backend.admin.inspect().then(
    (check) => check.warnings[0],
    () => undefined,
  );
  return {
    files: [
      `audit log and approvals in PostgreSQL at ${describeDatabase(config.databaseUrl)}`,
      `${config.fingerprintKeyFile}: the key that fingerprints secret inputs, shared by every replica`,
      ...(guard === undefined ? [] : [`warning: ${guard}`]),
    ],
    ...optional('guard', guard),
    sandboxNote:
      "this replica's own: replicas on one database need one service, so one that takes over another's payout reaches the service that has it; run one `bankops sandbox` and set BANKOPS_BASE_URL on every replica (docs/deploy.md)",
  };
}
