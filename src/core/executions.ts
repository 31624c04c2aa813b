import type { ExecuteResult } from './results.js';

/** A direct run that carried an idempotency key. */
export interface KeyedRun {
  /** The input the key stands for (`requestFingerprint`). */
  fingerprint: string;
  requestId: string;
  /** Its first success (redacted), kept for retries; null while there is none. */
  result: ExecuteResult | null;
}

/**
 * Direct runs that carried an idempotency key: which input a key stands for, its request id, and
 * the first successful result (redacted), so a retry returns it instead of acting twice
 * (src/core/store/sqlite/executions.ts for SQLite).
 */
export interface ExecutionStore {
  /**
   * Deletes the rows of these tools whose fingerprint was not made with the install's key (written
   * by an earlier version), with their bytes overwritten where the backend can, not only unlinked.
   */
  forgetUnkeyed(tools: readonly string[]): Promise<void>;
  get(actor: string, tool: string, key: string): Promise<KeyedRun | undefined>;
  /** Binds the key to this input and request id (the first caller wins). */
  reserve(actor: string, tool: string, key: string, fingerprint: string, requestId: string): Promise<void>;
  /** Keeps the first success (already redacted) for retries. */
  finish(actor: string, tool: string, key: string, result: ExecuteResult): Promise<void>;
}
