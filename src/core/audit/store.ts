import type { AuditRow } from './rows.js';
import type { AuditAnchor, AuditFilter } from './schema.js';

/** Every column of the `audit_log` table, in the order the stores and the database copy name them. */
export const AUDIT_COLUMNS = [
  'seq',
  'ts',
  'actor',
  'front_end',
  'tool',
  'input',
  'decision',
  'event',
  'approval_id',
  'request_ids',
  'outcome',
  'error',
  'duration_ms',
  'evidence',
  'policy',
  'prev_hash',
  'hash',
] as const satisfies readonly (keyof AuditRow)[];

/**
 * The audit chain's table (src/core/store/sqlite/audit.ts for SQLite). The log seals entries; the
 * store keeps them. Append-only: a backend refuses updates and deletes itself (SQLite's triggers,
 * PostgreSQL's grants).
 */
export interface AuditStore {
  /**
   * The newest entry's seq and hash (seq 0 and the genesis hash when empty). In a write
   * transaction it also holds the chain's head for this transaction, so no other writer appends
   * between this read and the commit (SQLite's write lock does it; PostgreSQL locks a row).
   */
  head(): Promise<AuditAnchor>;
  /** Appends sealed rows after the head, in order. */
  insert(rows: readonly AuditRow[]): Promise<void>;
  /**
   * Stored rows matching the filter, exactly as the backend returns them (`entryOf` reads them,
   * `ChainCheck` checks them). Throws `AuditFilterError` for a filter it cannot apply.
   */
  select(filter: AuditFilter, defaultLimit: number | undefined): Promise<unknown[]>;
}
