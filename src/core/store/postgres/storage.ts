import type pg from 'pg';
import { AsyncScope } from '../../async-scope.js';
import type { Prepared } from '../../audit/seal.js';
import { internalError } from '../../errors.js';
import type { AuditAppendOptions, AuditCommit, Storage, Stores, Tx, TxOptions } from '../index.js';
import { Mutex } from '../mutex.js';
import { WalBarrier } from './audit-flush.js';
import { PgAlertStore } from './core/alerts.js';
import { PgApprovalStore } from './core/approvals.js';
import { PgAuditStore } from './core/audit.js';
import { appendAuditBatch } from './core/audit-append.js';
import { PgBreakGlassStore } from './core/break-glass.js';
import { PgClaimStore } from './core/claims.js';
import { PgExecutionStore } from './core/executions.js';
import { PgFeedStore } from './core/feed.js';
import { type BegunCount, countStatements, PgMoneyHoldStore } from './core/holds.js';
import { PgCredentialStore, PgLinkStore } from './core/passkeys.js';
import { PgPolicyVersionStore } from './core/policies.js';
import { databaseUnreachable, isUnreachable } from './errors.js';
import { LockKey } from './locks.js';
import type { PgStore } from './pool.js';
import { withTransaction } from './transaction.js';

/** A transaction in progress: its stores, whether it writes, and what to run after it commits. */
interface Open {
  stores: Stores;
  write: boolean;
  done: boolean;
  afterCommit: (() => void)[];
}

function storesOn(client: pg.ClientBase, write: boolean, begun?: BegunCount): Stores {
  return {
    approvals: new PgApprovalStore(client),
    feed: new PgFeedStore(client),
    executions: new PgExecutionStore(client),
    audit: new PgAuditStore(client, write),
    credentials: new PgCredentialStore(client),
    links: new PgLinkStore(client),
    claims: new PgClaimStore(client),
    alerts: new PgAlertStore(client),
    policies: new PgPolicyVersionStore(client),
    holds: new PgMoneyHoldStore(client, begun),
    breakGlass: new PgBreakGlassStore(client),
  };
}

/**
 * The core's stores in PostgreSQL (the schema comes from `migrate`, ./migrate.ts), with SQLite's
 * semantics: write transactions are serialised, by a transaction-level advisory lock taken first
 * (`LockKey.Storage`, in the round trip of BEGIN, with the running totals the transaction will
 * count: `TxOptions.count`), which plays the part of SQLite's `BEGIN IMMEDIATE` across replicas. The
 * engine reads, decides and writes inside one transaction and relies on nobody writing in between;
 * under the lock that holds at READ COMMITTED without a serialization failure to replay, and the
 * feed's sequence numbers are given in commit order (./core/feed.ts). A `read` is one REPEATABLE
 * READ snapshot and takes no lock in the database. In the process, transactions run one after
 * another (an async mutex, as on SQLite), so one that awaits lets no other work in; one called
 * inside another joins it (an AsyncScope). A transient failure (a deadlock with another
 * component's transaction, a cut connection) runs the work again from the start, a bounded number
 * of times: the core's transactions only touch their stores, and callbacks wait for the commit.
 */
export class PostgresStorage implements Storage {
  readonly #store: PgStore;
  readonly #mutex = new Mutex();
  readonly #current = new AsyncScope<Open>();
  readonly #barrier: WalBarrier;

  constructor(store: PgStore) {
    this.#store = store;
    this.#barrier = new WalBarrier(store);
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, options: TxOptions = {}): Promise<T> {
    const outer = this.#joinable();
    if (outer !== undefined) {
      if (!outer.write) return Promise.reject(internalError('a write inside a read transaction'));
      return work(txOf(outer));
    }
    return this.#run(true, work, options);
  }

  read<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    const outer = this.#joinable();
    if (outer !== undefined) return work(outer.stores);
    return this.#run(false, work);
  }

  /**
   * An audit commit is one statement (`audit_append`): it takes the chain's advisory lock only, on
   * the server, neither the core's write lock nor this process's transaction mutex, so it waits for
   * no approval's transaction, and holds the lock for no round trip. It commits without waiting for
   * the disk; a durable one is on disk once the WAL barrier passes (./audit-flush.ts), while the
   * next commit may already run.
   */
  async appendAudit(batch: readonly Prepared[], options: AuditAppendOptions): Promise<AuditCommit> {
    let appended: Awaited<ReturnType<typeof appendAuditBatch>>;
    try {
      appended = await appendAuditBatch(this.#store.pool, batch, options.unsure);
    } catch (error) {
      throw isUnreachable(error) ? databaseUnreachable(this.#store.where, error) : error;
    }
    return { ...appended, onDisk: options.durable ? this.#barrier.after() : Promise.resolve() };
  }

  #joinable(): Open | undefined {
    const open = this.#current.get();
    // Work scheduled from inside a transaction (a timer) may run after it ended: it starts its own.
    return open === undefined || open.done ? undefined : open;
  }

  async #run<T>(write: boolean, work: (tx: Tx) => Promise<T>, options: TxOptions = {}): Promise<T> {
    const release = await this.#mutex.lock();
    let committed: Open | undefined;
    let result: T;
    let counting: readonly string[] = [];
    // Sent with BEGIN in its round trip: the write lock; a relaxed commit, which returns before
    // the WAL reaches the disk (a later durable one flushes it); the count the work will ask for.
    const begin = (client: pg.ClientBase): string[] => {
      counting = options.count === undefined ? [] : countStatements(client, options.count);
      return [
        ...(write ? [`SELECT pg_advisory_xact_lock(${LockKey.Storage})`] : []),
        ...(options.durable === false ? ["SELECT set_config('synchronous_commit', 'off', true)"] : []),
        ...counting,
      ];
    };
    try {
      result = await withTransaction(
        this.#store,
        async (client, begun) => {
          const sums = begun.at(-1);
          const count =
            options.count !== undefined && counting.length > 0 && sums !== undefined
              ? { count: options.count, sums }
              : undefined;
          const open: Open = { stores: storesOn(client, write, count), write, done: false, afterCommit: [] };
          committed = open;
          try {
            return await this.#current.run(open, () => work(txOf(open)));
          } finally {
            open.done = true;
          }
        },
        { isolation: write ? 'read committed' : 'repeatable read', begin },
      );
    } finally {
      release();
    }
    for (const callback of committed?.afterCommit ?? []) callback();
    return result;
  }
}

const txOf = (open: Open): Tx => ({
  ...open.stores,
  afterCommit: (callback) => open.afterCommit.push(callback),
});

const storages = new WeakMap<PgStore, PostgresStorage>();

/** The storage of a pool: one per pool, so every user of it shares its in-process lock. */
export function postgresStorage(store: PgStore): PostgresStorage {
  let storage = storages.get(store);
  if (storage === undefined) {
    storage = new PostgresStorage(store);
    storages.set(store, storage);
  }
  return storage;
}
