import { z } from 'zod';

/**
 * Who changed the payee directory: the identity (`mcp:ci-agent`), its front end and the person
 * behind it, as the policy said when it happened.
 */
export const PayeeActorSchema = z.object({
  actorId: z.string(),
  person: z.string(),
  frontEnd: z.string(),
});
export type PayeeActor = z.infer<typeof PayeeActorSchema>;

/** Where a payee is paid, masked: what a change of bank details moves a name away from. */
export const PayeeDetailsSchema = z.object({
  id: z.string(),
  country: z.string().optional(),
  currency: z.string().optional(),
  rail: z.string().optional(),
  accountMasked: z.string().optional(),
});

/**
 * One change of the payee directory that pointed a name at bank details: `created` (a beneficiary
 * made through bankops), `named` (a beneficiary made elsewhere given its name, or named again).
 * `before`: the name was known for other bank details, and this change moved it here.
 */
export const PayeeChangeSchema = z.object({
  kind: z.enum(['created', 'named']),
  at: z.string(),
  by: PayeeActorSchema,
  name: z.string().optional(),
  approvalId: z.string().optional(),
  before: PayeeDetailsSchema.optional(),
});
export type PayeeChange = z.infer<typeof PayeeChangeSchema>;

/** A call-back to a number already on file, confirming the bank details (`bankops payees verify`). */
export const PayeeVerificationSchema = z.object({
  method: z.literal('callback'),
  at: z.string(),
  by: PayeeActorSchema,
  /** The number called, masked to its last four. */
  contactMasked: z.string(),
  note: z.string(),
});
export type PayeeVerification = z.infer<typeof PayeeVerificationSchema>;

/**
 * What bankops knows of a payee. The service has no beneficiary read endpoint, so this directory
 * is the only place an approver's "pay Rhein Maschinenbau GmbH (DE, EUR, SWIFT)" can come from.
 * Account numbers are kept masked (last four) only. `changes` is the payee's directory history,
 * oldest first; `verification` holds only while no change came after it.
 */
export const PayeeSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  entityType: z.string().optional(),
  country: z.string().optional(),
  currency: z.string().optional(),
  /** `LOCAL/ACH`, `SWIFT`: the payment method and clearing system of its corridor. */
  rail: z.string().optional(),
  /** `••••6789`. */
  accountMasked: z.string().optional(),
  changes: z.array(PayeeChangeSchema).optional(),
  verification: PayeeVerificationSchema.optional(),
});
export type Payee = z.infer<typeof PayeeSchema>;

/** A payout that went out to a payee, as the core saw it succeed (its request id once). */
export interface PayeePayout {
  beneficiaryId: string;
  requestId: string;
  amount: number;
  currency: string;
  at: string;
}

/** Payouts to one payee so far: how many, how much per currency, the first and the last. */
export interface PayoutsSoFar {
  count: number;
  totals: { amount: number; currency: string }[];
  first?: string;
  last?: string;
}

/**
 * The directory's store. Its SQL lives with each backend (`store/sqlite/payees.ts`,
 * `store/postgres/payees.ts`).
 */
export interface PayeeDirectory {
  get(id: string): Promise<Payee | undefined>;
  /** Every payee id known, for "did you mean". */
  ids(): Promise<string[]>;
  /** Every payee known (a directory holds hundreds, not millions): names are matched over it. */
  all(): Promise<Payee[]>;
  /** Adds the payee, or replaces what was known of it. */
  remember(payee: Payee): Promise<void>;
  /** A payout that succeeded; the same request id twice is kept once. */
  notePayout(payout: PayeePayout): Promise<void>;
  /** A payout the service settled as failed (its request id): no money reached the payee. */
  forgetPayout(requestId: string): Promise<void>;
  /** Payouts to this payee so far. */
  payouts(beneficiaryId: string): Promise<PayoutsSoFar>;
}

/** `123456789` → `••••6789`; nothing for an empty value. */
export function maskAccount(value: string | null | undefined): string | undefined {
  const compact = value?.replace(/\s+/g, '') ?? '';
  return compact === '' ? undefined : `••••${compact.slice(-4)}`;
}

/** A name as payees are matched: case-insensitive, spaces collapsed (`ACME GmbH` is `acme  gmbh`). */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The payee of this name, other than `exceptId`, most recently changed first. */
export async function payeeNamed(
  directory: PayeeDirectory,
  name: string,
  exceptId?: string,
): Promise<Payee | undefined> {
  const key = nameKey(name);
  const named = (await directory.all()).filter(
    (p) => p.id !== exceptId && p.name !== undefined && nameKey(p.name) === key,
  );
  return named.sort((a, b) => lastChange(b).localeCompare(lastChange(a)))[0];
}

const lastChange = (payee: Payee): string => payee.changes?.at(-1)?.at ?? '';

/** The payee's details, masked, as a change's `before`. */
export function detailsOf(payee: Payee): z.infer<typeof PayeeDetailsSchema> {
  const { id, country, currency, rail, accountMasked } = payee;
  return Object.fromEntries(
    Object.entries({ id, country, currency, rail, accountMasked }).filter(([, v]) => v !== undefined),
  ) as z.infer<typeof PayeeDetailsSchema>;
}

/** The record a backend keeps of a payee: checked, empty fields left out, the id apart. */
export function payeeRecord(value: Payee): { id: string; record: Omit<Payee, 'id'> } {
  const { id, ...rest } = PayeeSchema.parse(value);
  const record = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== ''));
  return { id, record: record as Omit<Payee, 'id'> };
}
