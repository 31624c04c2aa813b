import type { AlertStore } from '../alerts/store.js';
import type { BreakGlassStore } from '../approvals/break-glass-store.js';
import type { FeedStore } from '../approvals/feed.js';
import type { ApprovalStore } from '../approvals/store.js';
import type { AuditEntry } from '../audit/schema.js';
import type { Prepared } from '../audit/seal.js';
import type { AuditStore } from '../audit/store.js';
import type { ExecutionStore } from '../executions.js';
import type { CredentialStore } from '../passkeys/credentials.js';
import type { LinkStore } from '../passkeys/links.js';
import type { PolicyVersionStore } from '../policy/versions.js';
import type { ClaimStore } from '../schedule/claims.js';
import type { HoldCount, MoneyHoldStore } from '../totals/store.js';

/**
 * The durable stores of the core, as one transaction sees them. Every method runs inside the
 * transaction it was handed in, so a backend can do it in one or a few statements there.
 */
export interface Stores {
  approvals: ApprovalStore;
  feed: FeedStore;
  executions: ExecutionStore;
  audit: AuditStore;
  /** People's registered passkeys. */
  credentials: CredentialStore;
  /** One-time links to the passkey pages. */
  links: LinkStore;
  /** Claims on scheduled work: each slot done by one replica. */
  claims: ClaimStore;
  /** Balance alerts: what each watches and the state of its last check. */
  alerts: AlertStore;
  /** The policy's versions: the newest is the one in force. */
  policies: PolicyVersionStore;
  /** Money moved or waiting to move, for running totals and daily limits. */
  holds: MoneyHoldStore;
  /** Break-glass uses and their reviews. */
  breakGlass: BreakGlassStore;
}

/** A write transaction's stores. */
export interface Tx extends Stores {
  /** Runs once the outermost transaction has committed; never if it rolls back. */
  afterCommit(callback: () => void): void;
}

export interface AuditAppendOptions {
  /**
   * `true`: `onDisk` resolves once the batch is on disk. `false` (reads' entries): committed without
   * a flush to disk of its own; a later durable commit puts it on disk too.
   */
  durable: boolean;
  /**
   * An earlier batch whose commit failed in a way that may have committed it (the connection was
   * cut during it). If it is in the chain, nothing is written and its entries are returned instead
   * (`of: 'unsure'`). A backend whose failed commit never commits (SQLite) may ignore it.
   */
  unsure?: readonly Prepared[] | undefined;
}

/** An audit commit done: the entries it sealed, and when they are on disk. */
export interface AuditCommit {
  entries: AuditEntry[];
  /** `unsure`: the earlier batch was found committed, and `entries` are its entries. */
  of: 'batch' | 'unsure';
  /**
   * Resolves once the commit is on disk (at once when the commit was relaxed, or flushed itself);
   * rejects if that cannot be made sure. Apart from the commit, so the next can start meanwhile.
   */
  onDisk: Promise<void>;
}

export interface TxOptions {
  /**
   * `false`: committed without a flush to disk of its own (reads' audit entries, a link's claim);
   * a later durable commit puts it on disk too. `true` by default.
   */
  durable?: boolean;
  /**
   * Running totals the work counts (`tx.holds.count` with this very object, once, before it writes
   * any hold): a backend may take its locks and sums as the transaction begins and answer that
   * call from them (PostgreSQL: in the round trip of BEGIN). Read under its locks either way.
   */
  count?: HoldCount | undefined;
}

/**
 * Where the core keeps what must survive a restart (docs/architecture.md, "The stores"). One
 * implementation per backend, its SQL in its own modules (`src/core/store/sqlite/`).
 *
 * - `transaction` is serialisable for what the core does: in a process, write transactions run one
 *   after another (an `await` inside one never lets another in); across processes, the backend's
 *   lock does the same. A `transaction` or `read` called inside a transaction joins it.
 * - `read` sees committed data only, as of one moment.
 */
export interface Storage {
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: TxOptions): Promise<T>;
  read<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
  /**
   * One commit that only appends a batch to the audit chain (the audit log's group commit): read the
   * head, seal the batch after it (`sealAfter`), insert it. It holds the chain's head and nothing
   * more: on PostgreSQL the chain's advisory lock, never the core's write lock, so appenders do not
   * wait for approvals' transactions nor hold them up (a transaction that appends inside itself
   * takes the core's lock first and the chain's second, never the reverse). It never joins a
   * caller's transaction.
   */
  appendAudit(batch: readonly Prepared[], options: AuditAppendOptions): Promise<AuditCommit>;
}
