import { canonicalJson } from '../core/canonical-json.js';
import type { Logger } from '../core/log.js';
import { optional } from '../core/optional.js';
import { maskAccount, type Payee, type PayeeDirectory, payeeRecord } from '../core/payees.js';
import { SEED_BENEFICIARIES } from '../sandbox/areas/banking/seed.js';

/**
 * The sandbox starts with payees bankops did not create; against it, the directory learns them
 * too, so the demo's approvals name their payee like any payee made with create_beneficiary. The
 * directory is told what the seed holds, as the sandbox's own record: no change of the payee
 * directory by a person, so no cooling-off starts for the demo. A seeded payee a person has since
 * named or verified is bankops's own record from then on and is never written over (its name, its
 * changes, its call-back stay). With `onlyUnknown` (a separate `bankops sandbox` that replicas
 * share), payees the directory knows already are left as they are: the first replica or CLI
 * process to see that sandbox names them, the others find them named. A payee the directory holds
 * exactly so already is not written again (every command that starts the embedded sandbox comes
 * here).
 */
export async function rememberSandboxPayees(
  payees: PayeeDirectory,
  options: { onlyUnknown?: boolean } = {},
): Promise<void> {
  for (const b of SEED_BENEFICIARIES) {
    const masked = maskAccount(b.accountNumber);
    const payee: Payee = {
      id: b.beneficiaryId,
      ...(b.displayName === null ? {} : { name: b.displayName }),
      entityType: b.entityType,
      country: b.bankCountry,
      currency: b.currency,
      rail:
        b.clearingSystem === null || b.clearingSystem === b.paymentMethod
          ? b.paymentMethod
          : `${b.paymentMethod}/${b.clearingSystem}`,
      ...optional('accountMasked', masked),
    };
    const held = await payees.get(payee.id);
    if (held === undefined || !(options.onlyUnknown === true || actedOn(held) || same(held, payee)))
      await payees.remember(payee);
  }
}

/** A person named or verified it: the directory's record, no longer the seed's. */
const actedOn = (held: Payee): boolean => (held.changes?.length ?? 0) > 0 || held.verification !== undefined;

const same = (held: Payee, payee: Payee): boolean =>
  canonicalJson(payeeRecord(held)) === canonicalJson(payeeRecord(payee));

/**
 * A separate `bankops sandbox` this process is pointed at: its seeded payees are named in this
 * database unless they are known already. A failure is said and passed over: approvals then say
 * "a payee bankops did not create", nothing worse.
 */
export async function nameSharedSandboxPayees(payees: PayeeDirectory, log: Logger): Promise<void> {
  try {
    await rememberSandboxPayees(payees, { onlyUnknown: true });
  } catch (error) {
    log.warn("naming the sandbox's seeded payees failed; approvals may not name them", { error });
  }
}
