import type pg from 'pg';
import type { HoldSums, MoneyHold, MoneyHoldStore } from '../../../totals/store.js';

const COLUMNS = {
  requester: 'requester',
  beneficiary: 'beneficiary',
  sourceAccount: 'source_account',
} as const;

/** The INSERT of a hold, its parameters numbered after `offset` others (an approval's, ./approvals.ts). */
export const HOLD_INSERT = (offset: number): string =>
  `INSERT INTO money_holds (id, at_ms, requester, beneficiary, source_account, currency, amount_minor, approval_id)
   VALUES (${Array.from({ length: 8 }, (_, i) => `$${offset + i + 1}`).join(', ')})`;

export const holdValues = (hold: MoneyHold): unknown[] => [
  hold.id,
  hold.at,
  hold.requester,
  hold.beneficiary ?? null,
  hold.sourceAccount ?? null,
  hold.currency,
  hold.amount,
  hold.approvalId ?? null,
];

/** The first key of the two-part advisory locks of running totals (`bklm`): apart from every other lock. */
const HOLDS_LOCK_CLASS = 0x626b6c6d;

/**
 * The running totals' rows in PostgreSQL. Admission locks its subjects first (transaction-level
 * advisory locks, taken in one statement in sorted order, so two admissions never wait on each
 * other crosswise), then sums and inserts: a replica that counts after another's admission waits
 * for its commit and sees its row. (The core's write lock serialises write transactions too; these
 * locks keep the guarantee where it comes from, the subjects.)
 */
export class PgMoneyHoldStore implements MoneyHoldStore {
  constructor(private readonly client: pg.ClientBase) {}

  async count(locks: readonly string[], queries: readonly HoldSums[]): Promise<number[][]> {
    if (queries.length === 0) return [];
    const literal = (value: unknown): string =>
      typeof value === 'number' && Number.isSafeInteger(value)
        ? String(value)
        : this.client.escapeLiteral(String(value));
    const sums = sumsStatement(queries, literal);
    const keys = [...new Set(locks)].sort();
    // Two statements in one round trip (a simple query): the second takes its snapshot only once
    // the first was granted every lock, so it sees what the holder before it committed.
    const lock =
      keys.length === 0
        ? ''
        : `SELECT pg_advisory_xact_lock(${HOLDS_LOCK_CLASS}, hashtext(k)) FROM unnest(ARRAY[${keys.map(literal).join(', ')}]::text[]) AS k;\n`;
    const results = (await this.client.query(`${lock}${sums}`)) as unknown as
      | pg.QueryResult<Record<string, string[]>>
      | pg.QueryResult<Record<string, string[]>>[];
    const row = (Array.isArray(results) ? results.at(-1) : results)?.rows[0] ?? {};
    return queries.map((query, k) => query.since.map((_, i) => Number(row[`q${k}`]?.[i] ?? 0)));
  }

  async insert(hold: MoneyHold): Promise<void> {
    await this.client.query(HOLD_INSERT(0), holdValues(hold));
  }

  async releaseApproval(approvalId: string, at: number): Promise<void> {
    await this.client.query(
      'UPDATE money_holds SET released_at_ms = $1 WHERE approval_id = $2 AND released_at_ms IS NULL',
      [at, approvalId],
    );
  }

  async release(id: string, at: number): Promise<void> {
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
      // The range also as a row comparison on the subject's index columns: only that index can
      // start its scan there, so the planner takes it even on a table never analyzed (autovacuum
      // off), rather than the company index filtering every subject's rows of the window.
      const subject = literal(query.subject ?? '');
      where = `h.${column} = ${subject} AND h.currency = ${currency}
                AND (h.${column}, h.currency, h.at_ms) >= (${subject}, ${currency}, ${from})`;
    }
    return `(SELECT ARRAY[${each.join(', ')}]
               FROM money_holds h
              WHERE ${where}
                AND h.released_at_ms IS NULL) AS q${k}`;
  });
  return `SELECT ${columns.join(',\n       ')}`;
}
