import type { FeedSharing } from '../approvals/follow.js';
import type { CardDirectory } from '../cards.js';
import type { PayeeDirectory } from '../payees.js';
import type { WebhookKeyStore } from '../webhooks.js';
import type { Storage } from './index.js';
import type { KeyChecks } from './key-checks.js';
import type { PgStore } from './postgres/pool.js';
import type { Db } from './sqlite/database.js';
import type { ThreadTarget } from './thread.js';

export type { ThreadTarget } from './thread.js';

/** The directories the front ends' answers fill, each on the backend's database. */
export interface Directories {
  payees: PayeeDirectory;
  cards: CardDirectory;
  webhookKeys: WebhookKeyStore;
}

/** What a backend does that the code above it may count on, named (never found out by its kind). */
export interface Capabilities {
  /**
   * A commit returns once it is on disk (SQLite's `synchronous = FULL`); otherwise a durable
   * commit's `onDisk` says when it is (PostgreSQL's flush barrier).
   */
  commitIsDurable: boolean;
}

/**
 * A feature's own stores (Slack's), one builder per backend in the feature's own
 * `store/<backend>/`; each is loaded only on its backend, so SQLite users never load `pg`.
 */
export interface FeatureStores<T> {
  sqlite(): Promise<(db: Db) => T>;
  postgres(): Promise<(store: PgStore) => T>;
}

/** What a migration did: each applied step's name, and the schema's version where it has one. */
export interface Migrated {
  applied: string[];
  /** PostgreSQL: the schema version before and after. */
  version?: { from: number; to: number };
}

/**
 * The backend's administration, for `bankops db` and `config check`: usable without opening the
 * stores (nothing is migrated or created by merely making it). What a backend cannot do is absent.
 */
export interface BackendAdmin {
  /** The file, or `host:port/db` (never a password): for messages. */
  readonly where: string;
  /** Whether the database has roles, so that `migrate` can grant a runtime role what it needs. */
  readonly roles: boolean;
  /** Brings the database to this version's schema; `grant` gives a runtime role its grants. */
  migrate(options?: { grant?: string }): Promise<Migrated>;
  /** Whether the database can be used, and how, changing nothing (`bankops config check`). */
  inspect(): Promise<DatabaseCheck>;
  /** A consistent copy of the database in `file` while others go on using it (SQLite's online backup). */
  backup?(file: string, progress: (done: number, total: number) => void): Promise<{ pages: number }>;
  /**
   * Copies a SQLite deployment's file into this database, which must hold no row (PostgreSQL),
   * migrating it first.
   */
  copyFrom?(sqliteFile: string, events: CopyEvents): Promise<CopyResult>;
  close(): Promise<void>;
}

/** What `bankops config check` says of the database: in words, and as data for `--json`. */
export interface DatabaseCheck {
  json: {
    backend: 'sqlite' | 'postgres';
    where: string;
    /** False when it could not be reached (PostgreSQL) or read (SQLite). */
    reachable: boolean;
    /** PostgreSQL: the role the URL logs in as, the schema's version and the audit log's guard. */
    role?: string;
    version?: number;
    latest?: number;
    auditGuard?: 'append-only' | 'triggers' | 'owner' | undefined;
    /** SQLite: whether the file exists yet (made at first use); not opened. */
    exists?: boolean;
  };
  /** What to show, label by label. */
  lines: { label: string; text: string }[];
  /** What stops every front end (unreachable, newer than this bankops). */
  blocking?: string;
  /** What an operator should know and fix, though bankops runs (the audit log's guard). */
  warnings: string[];
}

/** What a copy tells as it goes: the target migrated (said applied or not), then each table's rows. */
export interface CopyEvents {
  migrated(migrated: Migrated): void;
  progress(step: CopyProgress): void;
}

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
}

export interface CopyResult {
  /** Rows per table, in the order copied. */
  rows: { table: string; rows: number }[];
  /** The audit chain as verified on the target. */
  audit: { entries: number; head: { seq: number; hash: string } };
  /** Schema versions the copy applied to the target first (it had no tables). */
  migrated: Migrated;
}

/**
 * The database's schema against this bankops: `current`, `behind` (restored from before a migration
 * this version made) or `ahead` (a newer bankops migrated it since this process started: the one
 * it would refuse at start).
 */
export type SchemaState = 'current' | 'behind' | 'ahead';

/**
 * "Look at the policy's versions now", from whichever process recorded one (PostgreSQL's NOTIFY):
 * a hint only, the table holds the truth and each process's own look stays the fallback.
 */
export interface PolicyWakeups {
  /** Calls `wake` whenever a version may have been recorded; returns a function that stops it. */
  onPolicyChange(wake: () => void): () => void;
}

/**
 * The one seam between bankops and its database (DESIGN decision 18): built by `openSqlite` or
 * `openPostgres` (src/core/store/<backend>/backend.ts), chosen by the composition root only
 * (src/app/database.ts). Everything above it sees these interfaces and named capabilities, never
 * a backend's kind, connection or SQL.
 */
export interface Backend {
  /** `SQLite` or `PostgreSQL`: words for people, never a thing to branch on. */
  readonly name: string;
  /** The file, or `host:port/db` (never a password): for messages. */
  readonly where: string;
  /** The core's stores and their transactions. */
  readonly storage: Storage;
  readonly directories: Directories;
  /** Check values of the keys kept outside the database (the fingerprint key's). */
  readonly keyChecks: KeyChecks;
  /** Wake-ups across replicas and consumer groups, where replicas on several hosts share the database. */
  readonly feedSharing?: FeedSharing;
  /** Wake-ups when another process records a policy version, where the database sends them. */
  readonly policyWakeups?: PolicyWakeups;
  readonly capabilities: Capabilities;
  readonly admin: BackendAdmin;
  /** A feature's own stores on this database. */
  storesOf<T>(feature: FeatureStores<T>): Promise<T>;
  /**
   * Where the audit writer's thread opens a connection of its own (named `applicationName` where
   * sessions have names); none for a database only this connection sees (SQLite in memory).
   */
  threadTarget(applicationName: string): ThreadTarget | undefined;
  /**
   * Whether the database answers a round trip within `deadlineMs`, behind none of this process's
   * transactions (`/healthz`). Absent where a read through the storage never waits on a network.
   */
  ping?(deadlineMs: number): Promise<boolean>;
  /**
   * The schema against this bankops (`/readyz`), read behind none of this process's transactions.
   * PostgreSQL: its version. SQLite: whether the file holds migrations this code does not know (a
   * process migrates the file when it opens it, so it is never behind while one runs; Slack's tables
   * exist only where Slack ran, so missing ones say nothing).
   */
  schemaState(): Promise<SchemaState>;
  close(): Promise<void>;
}
