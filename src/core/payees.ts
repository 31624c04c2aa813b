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

/**
 * The directory's store: one statement each (a read, a read of the ids, an upsert). Its SQL lives
 * with each backend (`store/sqlite/payees.ts`, `store/postgres/payees.ts`).
 */
export interface PayeeDirectory {
  get(id: string): Promise<Payee | undefined>;
  /** Every payee id known, for "did you mean". */
  ids(): Promise<string[]>;
  /** Adds the payee, or replaces what was known of it. */
  remember(payee: Payee): Promise<void>;
}

/** `123456789` → `••••6789`; nothing for an empty value. */
export function maskAccount(value: string | null | undefined): string | undefined {
  const compact = value?.replace(/\s+/g, '') ?? '';
  return compact === '' ? undefined : `••••${compact.slice(-4)}`;
}
