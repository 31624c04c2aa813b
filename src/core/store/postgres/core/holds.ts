import type pg from 'pg';
import type { HoldCount, HoldSums, MoneyHold, MoneyHoldStore } from '../../../totals/store.js';
import { holdValues } from '../../rows/holds.js';

const COLUMNS = {
  requester: 'requester',
  beneficiary: 'beneficiary',
  sourceAccount: 'source_account',
} as const;

/** The INSERT of a hold, its parameters numbered after `offset` others (an approval's, ./approvals.ts). */
export const HOLD_INSERT = (offset: number): string =>
  `INSERT INTO money_holds (id, at_ms, requester, beneficiary, source_account, currency, amount_minor, approval_id)
   VALUES (${Array.from({ length: 8 }, (_, i) => `$${offset + i + 1}`).join(', ')})`;

/** The first key of the two-part advisory locks of running totals (`bklm`): apart from every other lock. */
const HOLDS_LOCK_CLASS = 0x626b6c6d;

/**
 * The statements of a count (none when it has no query): the subjects' locks, taken in one
 * statement in sorted order, then one SELECT of every sum. Sent together as one simple query, the
 * SELECT takes its snapshot only once every lock was granted, so it sees what the holder before it
 * committed.
 */
export function countStatements(client: pg.ClientBase, count: HoldCount): string[] {
  if (count.queries.length === 0) return [];
  const literal = (value: unknown): string =>
    typeof value === 'number' && Number.isSafeInteger(value)
      ? String(value)
      : client.escapeLiteral(String(value));
  const keys = [...new Set(count.locks)].sort();
  const lock =
    keys.length === 0
      ? []
      : [
          `SELECT pg_advisory_xact_lock(${HOLDS_LOCK_CLASS}, hashtext(k)) FROM unnest(ARRAY[${keys.map(literal).join(', ')}]::text[]) AS k`,
        ];
  return [...lock, sumsStatement(count.queries, literal)];
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
    const row = (sums?.rows[0] ?? {}) as Record<string, string[] | undefined>;
    return count.queries.map((query, k) => query.since.map((_, i) => Number(row[`q${k}`]?.[i] ?? 0)));
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

/** One SELECT of every query's sums: a scalar subquery per subject, each on its own index range. */
function sumsStatement(queries: readonly HoldSums[], literal: (value: unknown) => string): string {
  const columns = queries.map((query, k) => {
    const each = query.since.map(
      (since) => `COALESCE(SUM(CASE WHEN h.at_ms >= ${literal(since)} THEN h.amount_minor END), 0)::text`,
    );
    const column = query.of === 'company' ? undefined : COLUMNS[query.of];
    const [currency, from] = [literal(query.currency), literal(Math.min(...query.since))];
    let where = `h.currency = ${currency} AND h.at_ms >= ${from}`;
    if (column !== undefined) {
      // The subject's window as a range of its index, in row comparisons only: from (subject,
      // currency, start) up to the last row of (subject, currency). Only that index can bound a
      // scan by them, so the planner takes it even on a table never analyzed (autovacuum off),
      // rather than the company index filtering every subject's rows of the window; and its scan
      // starts at the window (an equality on the subject would start it at the subject's first
      // row, reading its whole history).
      const subject = literal(query.subject ?? '');
      where = `(h.${column}, h.currency, h.at_ms) >= (${subject}, ${currency}, ${from})
                AND (h.${column}, h.currency) <= (${subject}, ${currency})`;
    }
    return `(SELECT ARRAY[${each.join(', ')}]
               FROM money_holds h
              WHERE ${where}
                AND h.released_at_ms IS NULL) AS q${k}`;
  });
  return `SELECT ${columns.join(',\n       ')}`;
}
