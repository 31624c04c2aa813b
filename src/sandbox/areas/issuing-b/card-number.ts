import { randomInt } from 'node:crypto';

/** The sandbox's card range; numbers pass the Luhn check so client-side validators accept them. */
const BIN = '530000';

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A 16-digit card number `530000` + `middle` (5 digits) + one digit + `last4`. That digit is
 * chosen to satisfy the Luhn check, since the check digit itself is fixed by `last4`.
 */
export function cardNumber(middle: string, last4: string): string {
  for (let d = 0; d <= 9; d += 1) {
    const candidate = `${BIN}${middle}${d}${last4}`;
    if (luhnValid(candidate)) return candidate;
  }
  // Unreachable: one of the ten digits always satisfies the check.
  return `${BIN}${middle}0${last4}`;
}

/** A new random card number, ending in `last4` when given. */
export function newCardNumber(last4?: string): string {
  const tail = last4 ?? String(randomInt(0, 10_000)).padStart(4, '0');
  return cardNumber(String(randomInt(0, 100_000)).padStart(5, '0'), tail);
}

/** `5300 00** **** 1234`: the first six and last four digits, the rest hidden. */
export function truncateCardNumber(number: string): string {
  const masked = `${number.slice(0, 6)}${'*'.repeat(number.length - 10)}${number.slice(-4)}`;
  return masked.replace(/(.{4})(?=.)/g, '$1 ');
}
