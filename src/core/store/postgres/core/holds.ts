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

  async sums(query: HoldSums): Promise<number[]> {
    const column = query.of === 'company' ? undefined : COLUMNS[query.of];
    const values: unknown[] = [...query.since];
    const each = query.since.map(
      (_, i) => `COALESCE(SUM(CASE WHEN h.at_ms >= $${i + 1} THEN h.amount_minor END), 0)::text AS s${i}`,
    );
    const where: string[] = [];
    if (column !== undefined) {
      values.push(query.subject ?? '');
      where.push(`h.${column} = $${values.length}`);
    }
    values.push(query.currency, Math.min(...query.since), [...COUNTED_STATES]);
    const n = values.length;
    where.push(`h.currency = $${n - 2}`, `h.at_ms >= $${n - 1}`);
    const result = await this.client.query<Record<string, string>>(
      `SELECT ${each.join(', ')}
         FROM money_holds h LEFT JOIN approvals a ON a.id = h.approval_id
        WHERE ${where.join(' AND ')} AND h.released_at_ms IS NULL
          AND (h.approval_id IS NULL OR a.state = ANY ($${n}::text[]))`,
      values,
    );
    const row = result.rows[0] ?? {};
    return query.since.map((_, i) => Number(row[`s${i}`] ?? 0));
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
