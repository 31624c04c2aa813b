import { optional } from '../core/optional.js';
import { maskAccount, type PayeeDirectory } from '../core/payees.js';
import { SEED_BENEFICIARIES } from '../sandbox/areas/banking/seed.js';

/**
 * The sandbox starts with payees bankops did not create; against it, the directory learns them
 * too, so the demo's approvals name their payee like any payee made with create_beneficiary.
 */
export async function rememberSandboxPayees(payees: PayeeDirectory): Promise<void> {
  for (const b of SEED_BENEFICIARIES) {
    const masked = maskAccount(b.accountNumber);
    await payees.remember({
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
    });
  }
}
