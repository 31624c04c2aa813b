import { canonicalJson } from '../core/canonical-json.js';
import type { Logger } from '../core/log.js';
import { optional } from '../core/optional.js';
import { maskAccount, type Payee, type PayeeDirectory, payeeRecord } from '../core/payees.js';
import { SEED_BENEFICIARIES } from '../sandbox/areas/banking/seed.js';

/**
 * The sandbox starts with payees bankops did not create; against it, the directory learns them
 * too, so the demo's approvals name their payee like any payee made with create_beneficiary. The
 * directory is told what the seed holds, as the sandbox's own record: no change of the payee
 * directory by a person, so no cooling-off starts for the demo. With `onlyUnknown` (a separate
 * `bankops sandbox` that replicas share), payees the directory knows already are left as they are:
 * the first replica or CLI process to see that sandbox names them, the others find them named.
 * A payee the directory holds exactly so already is not written again (every command that starts
 * the embedded sandbox comes here).
 */
export async function rememberSandboxPayees(
  payees: PayeeDirectory,
  options: { onlyUnknown?: boolean } = {},
): Promise<void> {
  const known = options.onlyUnknown === true ? new Set(await payees.ids()) : new Set<string>();
  for (const b of SEED_BENEFICIARIES) {
    if (known.has(b.beneficiaryId)) continue;
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
    if (!(await heldAlready(payees, payee))) await payees.remember(payee);
  }
}

async function heldAlready(payees: PayeeDirectory, payee: Payee): Promise<boolean> {
  const held = await payees.get(payee.id);
  return held !== undefined && canonicalJson(payeeRecord(held)) === canonicalJson(payeeRecord(payee));
}

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
