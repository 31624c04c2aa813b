import { AsyncScope } from '../../async-scope.js';
import { GENESIS_HASH, hashOfText } from '../../audit/hash.js';
import type { AuditAnchor, AuditEntry } from '../../audit/schema.js';
import { type Prepared, sealAfter } from '../../audit/seal.js';
import { internalError } from '../../errors.js';
import type { AuditAppendOptions, AuditCommit, Storage, Stores, Tx, TxOptions } from '../index.js';
import { migrateAlerts, SqliteAlertStore } from './alerts.js';
import { SqliteApprovalStore } from './approvals.js';
import { migrateApprovals } from './approvals-schema.js';
import { SqliteAuditStore } from './audit.js';
import { migrateAuditLog } from './audit-schema.js';
import { migrateBreakGlass, SqliteBreakGlassStore } from './break-glass.js';
import { migrateClaims, SqliteClaimStore } from './claims.js';
import type { Db } from './database.js';
import { migrateExecutions, SqliteExecutionStore } from './executions.js';
import { SqliteFeedStore } from './feed.js';
import { underFileLock } from './file-lock.js';
import { migrateHolds, SqliteMoneyHoldStore } from './holds.js';
import { SqliteCredentialStore, SqliteLinkStore } from './passkeys.js';
import { migratePasskeys } from './passkeys-schema.js';
import { migratePolicies, SqlitePolicyVersionStore } from './policies.js';

/** A transaction in progress: whether it writes, and what to run after it commits. */
interface Open {
  write: boolean;
  done: boolean;
  afterCommit: (() => void)[];
}

/**
 * The stores on one better-sqlite3 connection. Transactions on it are serialised by the file's
 * async lock (./file-lock.ts), shared with the other stores writing to the file: one that awaits keeps the connection to itself, so no other work of this process joins it
 * by accident. Across processes, `BEGIN IMMEDIATE` takes SQLite's write lock (waiting up to the
 * connection's busy timeout). A transaction started inside another joins it (an AsyncScope
 * tells which one the caller is in).
 */
export class SqliteStorage implements Storage {
  readonly #db: Db;
  readonly #current = new AsyncScope<Open>();
  readonly #stores: Stores;
  /** The connection's own `synchronous` setting, restored after a relaxed commit. */
  readonly #synchronous: 'FULL' | 'NORMAL';

  constructor(db: Db) {
    migrateApprovals(db);
    migrateAuditLog(db);
    migrateExecutions(db);
    migratePasskeys(db);
    migrateClaims(db);
    migrateAlerts(db);
    migratePolicies(db);
    migrateHolds(db);
    migrateBreakGlass(db);
    this.#db = db;
    this.#synchronous = String(db.pragma('synchronous', { simple: true })) === '1' ? 'NORMAL' : 'FULL';
    this.#stores = {
      approvals: new SqliteApprovalStore(db),
      feed: new SqliteFeedStore(db),
      executions: new SqliteExecutionStore(db, (work) => this.#afterCommit(work)),
      audit: new SqliteAuditStore(db),
      credentials: new SqliteCredentialStore(db),
      links: new SqliteLinkStore(db),
      claims: new SqliteClaimStore(db),
      alerts: new SqliteAlertStore(db),
      policies: new SqlitePolicyVersionStore(db),
      holds: new SqliteMoneyHoldStore(db),
      breakGlass: new SqliteBreakGlassStore(db),
    };
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, options: TxOptions = {}): Promise<T> {
    const outer = this.#joinable();
    if (outer !== undefined) {
      if (!outer.write) return Promise.reject(internalError('a write inside a read transaction'));
      return work(this.#tx(outer));
    }
    return this.#run(true, work, options.durable !== false);
  }

  read<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    const outer = this.#joinable();
    if (outer !== undefined) return work(this.#stores);
    return this.#run(false, work, true);
  }

  /**
   * SQLite has one write lock: an audit commit is a write transaction, fsynced when durable. A
   * failed COMMIT here did not commit; but the audit writer's thread may have stopped after its
   * commit and before its answer, so an `unsure` batch found among the newest entries is not
   * written again.
   */
  async appendAudit(batch: readonly Prepared[], options: AuditAppendOptions): Promise<AuditCommit> {
    const appended = await this.#run(
      true,
      async (tx) => {
        const head = await tx.audit.head();
        const already =
          options.unsure === undefined ? undefined : committedEarlier(this.#db, head, options.unsure);
        if (already !== undefined) return { entries: already, of: 'unsure' as const };
        const { rows, entries } = sealAfter(head, batch);
        await tx.audit.insert(rows);
        return { entries, of: 'batch' as const };
      },
      options.durable,
    );
    return { ...appended, onDisk: Promise.resolve() };
  }

  #joinable(): Open | undefined {
    const open = this.#current.get();
    // Work scheduled from inside a transaction (a timer) may run after it ended: it starts its own.
    return open === undefined || open.done ? undefined : open;
  }

  #tx(open: Open): Tx {
    return { ...this.#stores, afterCommit: (callback) => open.afterCommit.push(callback) };
  }

  #afterCommit(callback: () => void): void {
    const open = this.#joinable();
    if (open === undefined) callback();
    else open.afterCommit.push(callback);
  }

  async #run<T>(write: boolean, work: (tx: Tx) => Promise<T>, durable: boolean): Promise<T> {
    const open: Open = { write, done: false, afterCommit: [] };
    const result = await underFileLock(this.#db, () => this.#inTransaction(open, work, durable), { write });
    for (const callback of open.afterCommit) callback();
    return result;
  }

  async #inTransaction<T>(open: Open, work: (tx: Tx) => Promise<T>, durable: boolean): Promise<T> {
    // A relaxed commit goes to the WAL without an fsync of its own; the next durable commit puts
    // it on disk too.
    const relaxed = !durable && this.#synchronous === 'FULL';
    try {
      if (relaxed) this.#db.pragma('synchronous = NORMAL');
      this.#db.exec(open.write ? 'BEGIN IMMEDIATE' : 'BEGIN');
      try {
        const result = await this.#current.run(open, () => work(this.#tx(open)));
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      open.done = true;
      if (relaxed) this.#db.pragma(`synchronous = ${this.#synchronous}`);
    }
  }
}

/** How far back from the head a batch cut off is looked for (as on PostgreSQL). */
const UNSURE_WINDOW = 50_000;

/**
 * The entries of `unsure`, sealed as they are stored, when that batch is among the newest of the
 * chain: not only at its head, since this process's own transactions (`appendIn`) and other
 * processes may have appended after it before it is looked for.
 */
function committedEarlier(db: Db, head: AuditAnchor, unsure: readonly Prepared[]): AuditEntry[] | undefined {
  const last = unsure.at(-1);
  if (last === undefined) return undefined;
  const rows = db
    .prepare('SELECT seq, prev_hash, hash FROM audit_log WHERE seq > ? AND ts = ? ORDER BY seq DESC')
    .all(head.seq - UNSURE_WINDOW, last.content.ts) as { seq: number; prev_hash: string; hash: string }[];
  for (const row of rows) {
    if (hashOfText(row.prev_hash, `${last.hashed[0]}${row.seq}${last.hashed[1]}`) !== row.hash) continue;
    const first = row.seq - unsure.length + 1;
    if (first < 1) continue;
    const before = db.prepare('SELECT hash FROM audit_log WHERE seq = ?').get(first - 1) as
      | { hash: string }
      | undefined;
    const { entries } = sealAfter({ seq: first - 1, hash: before?.hash ?? GENESIS_HASH }, unsure);
    if (entries.at(-1)?.hash === row.hash) return entries;
  }
  return undefined;
}

const storages = new WeakMap<Db, SqliteStorage>();

/** The storage of a connection: one per connection, so every user of it shares its lock. */
export function sqliteStorage(db: Db): SqliteStorage {
  let storage = storages.get(db);
  if (storage === undefined) {
    storage = new SqliteStorage(db);
    storages.set(db, storage);
  }
  return storage;
}
