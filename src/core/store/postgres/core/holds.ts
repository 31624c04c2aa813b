import type pg from 'pg';
import { COUNTED_STATES, type HoldSums, type MoneyHold, type MoneyHoldStore } from '../../../totals/store.js';

const COLUMNS = {
  requester: 'requester',
  beneficiary: 'beneficiary',
  sourceAccount: 'source_account',
} as const;

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

  async lock(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.client.query(
      'SELECT pg_advisory_xact_lock($1::int, hashtext(k)) FROM unnest($2::text[]) AS k',
      [HOLDS_LOCK_CLASS, [...new Set(keys)].sort()],
    );
  }

  async sums(queries: readonly HoldSums[]): Promise<number[][]> {
    if (queries.length === 0) return [];
    const values: unknown[] = [[...COUNTED_STATES]];
    const param = (value: unknown): string => {
      values.push(value);
      return `$${values.length}`;
    };
    // One scalar subquery per subject: each reads that subject's index range only.
    const columns = queries.map((query, k) => {
      const each = query.since.map(
        (since) => `COALESCE(SUM(CASE WHEN h.at_ms >= ${param(since)} THEN h.amount_minor END), 0)::text`,
      );
      const column = query.of === 'company' ? undefined : COLUMNS[query.of];
      const subject = column === undefined ? '' : `h.${column} = ${param(query.subject ?? '')} AND `;
      return `(SELECT ARRAY[${each.join(', ')}]
                 FROM money_holds h LEFT JOIN approvals a ON a.id = h.approval_id
                WHERE ${subject}h.currency = ${param(query.currency)} AND h.at_ms >= ${param(Math.min(...query.since))}
                  AND h.released_at_ms IS NULL AND (h.approval_id IS NULL OR a.state = ANY ($1::text[]))) AS q${k}`;
    });
    const result = await this.client.query<Record<string, string[]>>(
      `SELECT ${columns.join(',\n       ')}`,
      values,
    );
    const row = result.rows[0] ?? {};
    return queries.map((query, k) => query.since.map((_, i) => Number(row[`q${k}`]?.[i] ?? 0)));
  }

  async insert(hold: MoneyHold): Promise<void> {
    await this.client.query(
      `INSERT INTO money_holds (id, at_ms, requester, beneficiary, source_account, currency, amount_minor, approval_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        hold.id,
        hold.at,
        hold.requester,
        hold.beneficiary ?? null,
        hold.sourceAccount ?? null,
        hold.currency,
        hold.amount,
        hold.approvalId ?? null,
      ],
    );
  }

  async release(id: string, at: number): Promise<void> {
    await this.client.query(
      'UPDATE money_holds SET released_at_ms = $1 WHERE id = $2 AND released_at_ms IS NULL',
      [at, id],
    );
  }
}
