import { type Db, migrate } from './db.js';

/**
 * What bankops knows of a payee it created. The service has no beneficiary read endpoint, so this
 * directory is the only place an approver's "pay Rhein Maschinenbau GmbH (DE, EUR, SWIFT)" can
 * come from. Account numbers are kept masked (last four) only.
 */
export interface Payee {
  id: string;
  name?: string;
  entityType?: string;
  country?: string;
  currency?: string;
  /** `LOCAL/ACH`, `SWIFT`: the payment method and clearing system of its corridor. */
  rail?: string;
  /** `••••6789`. */
  accountMasked?: string;
}

export interface PayeeDirectory {
  get(id: string): Payee | undefined;
  /** Every payee id known, for "did you mean". */
  ids(): string[];
  remember(payee: Payee): void;
}

/** `123456789` → `••••6789`; nothing for an empty value. */
export function maskAccount(value: string | null | undefined): string | undefined {
  const compact = value?.replace(/\s+/g, '') ?? '';
  return compact === '' ? undefined : `••••${compact.slice(-4)}`;
}

const COLUMNS = ['name', 'entityType', 'country', 'currency', 'rail', 'accountMasked'] as const;

/** The directory in bankops's database (never the service's data beyond these fields). */
export function sqlitePayees(db: Db): PayeeDirectory {
  migrate(db, 'payees-1', [
    `CREATE TABLE payees (
       id TEXT PRIMARY KEY,
       record_json TEXT NOT NULL,
       updated_at TEXT NOT NULL
     ) STRICT`,
  ]);
  const read = db.prepare('SELECT record_json FROM payees WHERE id = ?');
  const all = db.prepare('SELECT id FROM payees ORDER BY id');
  const write = db.prepare(
    `INSERT INTO payees (id, record_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET record_json = excluded.record_json, updated_at = excluded.updated_at`,
  );
  return {
    get: (id) => {
      const row = read.get(id) as { record_json: string } | undefined;
      return row === undefined ? undefined : { ...(JSON.parse(row.record_json) as Omit<Payee, 'id'>), id };
    },
    ids: () => (all.all() as { id: string }[]).map((row) => row.id),
    remember: (payee) => {
      const record: Record<string, string> = {};
      for (const column of COLUMNS) {
        const value = payee[column];
        if (value !== undefined && value !== '') record[column] = value;
      }
      write.run(payee.id, JSON.stringify(record), new Date().toISOString());
    },
  };
}
