/** A Web API call to queue: its method, arguments and, optionally, a key that queues it only once. */
export interface OutboxCall {
  method: string;
  args: Record<string, unknown>;
  /** A second call with the same key is not queued (one daily anchor across replicas, one post per event). */
  dedupeKey?: string;
}

/** A queued call as the outbox sends it. */
export interface OutboxRow {
  id: number;
  method: string;
  args: Record<string, unknown>;
  attempts: number;
}

/** A stored `slack_outbox` row's columns that the outbox sends from, `args_json` as the backend keeps JSON. */
export interface StoredOutboxRow {
  id: number;
  method: string;
  args_json: unknown;
  attempts: number;
}

/** The queued call a stored row holds, its arguments read by the backend's JSON codec. */
export const outboxRowOf = (row: StoredOutboxRow, readJson: (stored: unknown) => unknown): OutboxRow => ({
  id: row.id,
  method: row.method,
  args: readJson(row.args_json) as Record<string, unknown>,
  attempts: row.attempts,
});

/**
 * The outbox's table (SQL in `sqlite/outbox.ts` and `postgres/outbox.ts`). Messages are sent
 * strictly in queue order, so only the head may be sent; claiming it is a compare-and-set that one
 * caller wins.
 */
export interface OutboxRows {
  /** Queues the calls in one transaction, in order, each with a key already queued skipped; how many were queued. */
  add(calls: readonly OutboxCall[], now: number): Promise<number>;
  /**
   * The oldest message not yet sent, leased to this caller until `leaseUntil`, when it is due and
   * no one holds a lease on it; undefined otherwise (nothing due, or another replica has it).
   */
  claimHead(now: number, leaseUntil: number): Promise<OutboxRow | undefined>;
  /** Slack took it. */
  sent(id: number, now: number): Promise<void>;
  /** Slack refused it for good: kept as done, with the error. */
  dropped(id: number, now: number, attempts: number, error: string): Promise<void>;
  /** A failure worth retrying: the lease is released and the head waits until `nextAt`. */
  retryAt(id: number, attempts: number, nextAt: number, error: string): Promise<void>;
  /** Messages not yet sent. */
  pending(): Promise<number>;
}
