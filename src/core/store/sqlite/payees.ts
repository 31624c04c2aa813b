import {
  type Payee,
  type PayeeDirectory,
  PayeeSchema,
  type PayoutsSoFar,
  payeeRecord,
} from '../../payees.js';
import { type Db, migrate } from './database.js';
import { underFileLock } from './file-lock.js';
import { sqliteJson } from './json.js';

/** The payee directory in the SQLite database (never the service's data beyond these fields). */
export function sqlitePayees(db: Db): PayeeDirectory {
  migrate(db, 'payees-1', [
    `CREATE TABLE payees (
       id TEXT PRIMARY KEY,
       record_json TEXT NOT NULL,
       updated_at TEXT NOT NULL
     ) STRICT`,
  ]);
  // Payouts that succeeded, per payee (the payee's history: how many, how much, first and last).
  migrate(db, 'payees-2', [
    `CREATE TABLE payee_payouts (
       request_id TEXT PRIMARY KEY,
       beneficiary_id TEXT NOT NULL,
       amount REAL NOT NULL,
       currency TEXT NOT NULL,
       at TEXT NOT NULL
     ) STRICT`,
    'CREATE INDEX payee_payouts_beneficiary ON payee_payouts (beneficiary_id, at)',
  ]);
  const read = db.prepare('SELECT id, record_json FROM payees WHERE id = ?');
  const ids = db.prepare('SELECT id FROM payees ORDER BY id');
  const every = db.prepare('SELECT id, record_json FROM payees ORDER BY id');
  const write = db.prepare(
    `INSERT INTO payees (id, record_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET record_json = excluded.record_json, updated_at = excluded.updated_at`,
  );
  const paid = db.prepare(
    `INSERT INTO payee_payouts (request_id, beneficiary_id, amount, currency, at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (request_id) DO NOTHING`,
  );
  const unpaid = db.prepare('DELETE FROM payee_payouts WHERE request_id = ?');
  const sums = db.prepare(
    `SELECT currency, COUNT(*) AS n, SUM(amount) AS total, MIN(at) AS first, MAX(at) AS last
       FROM payee_payouts WHERE beneficiary_id = ? GROUP BY currency ORDER BY currency`,
  );
  const payee = (row: { id: string; record_json: string }): Payee =>
    PayeeSchema.parse({ ...(sqliteJson.read(row.record_json) as object), id: row.id });
  return {
    get: async (id) => {
      const row = read.get(id) as { id: string; record_json: string } | undefined;
      return row === undefined ? undefined : payee(row);
    },
    ids: async () => (ids.all() as { id: string }[]).map((row) => row.id),
    all: async () => (every.all() as { id: string; record_json: string }[]).map(payee),
    remember: async (value) => {
      const { id, record } = payeeRecord(value);
      await underFileLock(db, () => write.run(id, sqliteJson.write(record), new Date().toISOString()));
    },
    notePayout: async (p) => {
      await underFileLock(db, () => paid.run(p.requestId, p.beneficiaryId, p.amount, p.currency, p.at));
    },
    forgetPayout: async (requestId) => {
      await underFileLock(db, () => unpaid.run(requestId));
    },
    payouts: async (beneficiaryId) =>
      soFar(
        sums.all(beneficiaryId) as {
          currency: string;
          n: number;
          total: number;
          first: string;
          last: string;
        }[],
      ),
  };
}

/** Per-currency sums of payouts as one payee's history. */
export function soFar(
  rows: readonly {
    currency: string;
    n: number | string;
    total: number | string;
    first: string;
    last: string;
  }[],
): PayoutsSoFar {
  const result: PayoutsSoFar = { count: 0, totals: [] };
  for (const row of rows) {
    result.count += Number(row.n);
    result.totals.push({ amount: Math.round(Number(row.total) * 100) / 100, currency: row.currency });
    if (result.first === undefined || row.first < result.first) result.first = row.first;
    if (result.last === undefined || row.last > result.last) result.last = row.last;
  }
  return result;
}
