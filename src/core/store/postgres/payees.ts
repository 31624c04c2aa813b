import { type Payee, type PayeeDirectory, PayeeSchema, payeeRecord } from '../../payees.js';
import { soFar } from '../sqlite/payees.js';
import { pgJson } from './json.js';
import type { PgStore } from './pool.js';
import { statement } from './statement.js';

/** The payee directory in PostgreSQL (never the service's data beyond these fields); tables by `migrate`. */
export function postgresPayees(store: PgStore): PayeeDirectory {
  const payee = (row: { id: string; record_json: unknown }): Payee =>
    PayeeSchema.parse({ ...(pgJson.read(row.record_json) as object), id: row.id });
  return {
    get: async (id) => {
      const found = await statement<{ id: string; record_json: unknown }>(
        store,
        'SELECT id, record_json FROM payees WHERE id = $1',
        [id],
      );
      const row = found.rows[0];
      return row === undefined ? undefined : payee(row);
    },
    // Byte order (`COLLATE "C"`), as SQLite sorts: the database's collation may sort `_` or case apart.
    ids: async () =>
      (await statement<{ id: string }>(store, 'SELECT id FROM payees ORDER BY id COLLATE "C"')).rows.map(
        (row) => row.id,
      ),
    all: async () =>
      (
        await statement<{ id: string; record_json: unknown }>(
          store,
          'SELECT id, record_json FROM payees ORDER BY id COLLATE "C"',
        )
      ).rows.map(payee),
    remember: async (value) => {
      const { id, record } = payeeRecord(value);
      await statement(
        store,
        `INSERT INTO payees (id, record_json, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET record_json = excluded.record_json, updated_at = excluded.updated_at`,
        [id, pgJson.write(record), new Date().toISOString()],
      );
    },
    notePayout: async (p) => {
      await statement(
        store,
        `INSERT INTO payee_payouts (request_id, beneficiary_id, amount, currency, at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (request_id) DO NOTHING`,
        [p.requestId, p.beneficiaryId, p.amount, p.currency, p.at],
      );
    },
    forgetPayout: async (requestId) => {
      await statement(store, 'DELETE FROM payee_payouts WHERE request_id = $1', [requestId]);
    },
    payouts: async (beneficiaryId) =>
      soFar(
        (
          await statement<{ currency: string; n: string; total: string; first: string; last: string }>(
            store,
            `SELECT currency, COUNT(*) AS n, SUM(amount) AS total, MIN(at) AS first, MAX(at) AS last
               FROM payee_payouts WHERE beneficiary_id = $1 GROUP BY currency ORDER BY currency`,
            [beneficiaryId],
          )
        ).rows,
      ),
  };
}
