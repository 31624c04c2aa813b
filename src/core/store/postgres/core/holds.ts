import type pg from 'pg';
import type { HoldCount, HoldSums, MoneyHold, MoneyHoldStore } from '../../../totals/store.js';
import { holdValues } from '../../rows/holds.js';
import { STARTS_PER_SCAN } from '../schema/holds.js';

/** The INSERT of a hold, its parameters numbered after `offset` others (an approval's, ./approvals.ts). */
export const HOLD_INSERT = (offset: number): string =>
  `INSERT INTO money_holds (id, at_ms, requester, beneficiary, source_account, currency, amount_minor, approval_id)
   VALUES (${Array.from({ length: 8 }, (_, i) => `$${offset + i + 1}`).join(', ')})`;

/** A start that sums nothing (no hold is that late): pads a scan's starts to `STARTS_PER_SCAN`. */
const NEVER = Number.MAX_SAFE_INTEGER;

/** Each query's scans (of up to `STARTS_PER_SCAN` starts), in order: `money_holds_count`'s rows. */
function scansOf(queries: readonly HoldSums[]): { query: HoldSums; since: readonly number[] }[] {
  return queries.flatMap((query) =>
    Array.from({ length: Math.max(1, Math.ceil(query.since.length / STARTS_PER_SCAN)) }, (_, n) => ({
      query,
      since: query.since.slice(n * STARTS_PER_SCAN, (n + 1) * STARTS_PER_SCAN),
    })),
  );
}

/**
 * The statement of a count (none when it has no query): one call of `money_holds_count`
 * (schema/holds.ts, version 15), which takes the subjects' locks in one order, then sums each
 * scan once they are granted, so it sees what the holder before it committed. Literals only, so it
 * can go with BEGIN in one simple query.
 */
export function countStatements(client: pg.ClientBase, count: HoldCount): string[] {
  if (count.queries.length === 0) return [];
  const scans = scansOf(count.queries);
  const text = (values: readonly string[]): string =>
    `ARRAY[${values.map((value) => client.escapeLiteral(value)).join(', ')}]::text[]`;
  const starts = scans.flatMap(({ since }) =>
    Array.from({ length: STARTS_PER_SCAN }, (_, i) => {
      const start = since[i] ?? NEVER;
      if (!Number.isSafeInteger(start))
        throw new Error(`a running total's start is not a whole ms: ${start}`);
      return start;
    }),
  );
  const args = [
    text([...new Set(count.locks)].sort()),
    text(scans.map(({ query }) => query.of)),
    text(scans.map(({ query }) => query.subject ?? '')),
    text(scans.map(({ query }) => query.currency)),
    `ARRAY[${starts.join(', ')}]::bigint[]`,
  ];
  return [`SELECT money_holds_count(${args.join(', ')}) AS sums`];
}

/** A count done as its transaction began (`TxOptions.count`), and the sums' result. */
export interface BegunCount {
  count: HoldCount;
  sums: pg.QueryResult;
}

/**
 * The running totals' rows in PostgreSQL. Admission locks its subjects first (transaction-level
 * advisory locks, so two admissions never wait on each other crosswise), then sums and inserts: a
 * replica that counts after another's admission waits for its commit and sees its row. (The core's
 * write lock serialises write transactions too; these locks keep the guarantee where it comes
 * from, the subjects.)
 */
export class PgMoneyHoldStore implements MoneyHoldStore {
  #begun: BegunCount | undefined;

  constructor(
    private readonly client: pg.ClientBase,
    begun?: BegunCount,
  ) {
    this.#begun = begun;
  }

  async count(count: HoldCount): Promise<number[][]> {
    if (count.queries.length === 0) return [];
    // The count the transaction began with answers this very count once, without a round trip.
    const begun = this.#begun;
    this.#begun = undefined;
    let sums: pg.QueryResult | undefined;
    if (begun?.count === count) sums = begun.sums;
    else {
      const statements = countStatements(this.client, count);
      const results = (await this.client.query(statements.join(';\n'))) as unknown as
        | pg.QueryResult
        | pg.QueryResult[];
      sums = Array.isArray(results) ? results.at(-1) : results;
    }
    const found = ((sums?.rows[0] ?? {}) as { sums?: (string | number)[] }).sums ?? [];
    // Each scan's `STARTS_PER_SCAN` sums in a row, a query's scans one after another (`scansOf`):
    // its start `i` is the `i`-th sum from its first scan's, the padding of its last scan after them.
    let first = 0;
    return count.queries.map((query) => {
      const sums = query.since.map((_, i) => Number(found[first * STARTS_PER_SCAN + i] ?? 0));
      first += Math.max(1, Math.ceil(query.since.length / STARTS_PER_SCAN));
      return sums;
    });
  }

  async insert(hold: MoneyHold): Promise<void> {
    // What the transaction began with no longer says what it counts.
    this.#begun = undefined;
    await this.client.query(HOLD_INSERT(0), holdValues(hold));
  }

  async releaseApproval(approvalId: string, at: number): Promise<void> {
    this.#begun = undefined;
    await this.client.query(
      'UPDATE money_holds SET released_at_ms = $1 WHERE approval_id = $2 AND released_at_ms IS NULL',
      [at, approvalId],
    );
  }

  async release(id: string, at: number): Promise<void> {
    this.#begun = undefined;
    await this.client.query(
      'UPDATE money_holds SET released_at_ms = $1 WHERE id = $2 AND released_at_ms IS NULL',
      [at, id],
    );
  }
}
