import { invalid } from '../../errors.js';
import { ageOn } from '../../validate.js';
import type { NameBody } from './schemas.js';

/** Cardholder rules that need more than one field or the sandbox clock. */

/** Spec: the cardholder must be at least 18 and under 80, judged on the sandbox clock's date. */
export function checkAge(dateOfBirth: string, now: Date): void {
  const age = ageOn(dateOfBirth, now);
  if (age < 18) throw invalid('individual.date_of_birth: the cardholder must be at least 18 years old');
  if (age >= 80) throw invalid('individual.date_of_birth: the cardholder must be under 80 years old');
}

/**
 * The spec requires name screening without saying against what. The sandbox's deterministic rule:
 * a last name of `Sanctioned` (any case) is a screening hit, so the refusal can be tried on purpose.
 */
export const SCREENING_HIT_LAST_NAME = 'sanctioned';

export function screenName(name: NameBody): void {
  if (name.last_name.trim().toLowerCase() === SCREENING_HIT_LAST_NAME) {
    throw invalid(
      'individual.name: the cardholder did not pass name screening (name matches a screening list)',
    );
  }
}
