import { createHash, randomInt } from 'node:crypto';

/** Card numbers and PINs: made up for the sandbox, shown only masked, kept only hashed. */

function luhnCheckDigit(partial: string): number {
  let sum = 0;
  const digits = [...partial].reverse().map(Number);
  digits.forEach((digit, i) => {
    let d = digit;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  });
  return (10 - (sum % 10)) % 10;
}

/** A 16-digit Luhn-valid number in a made-up virtual-card range. */
export function newVirtualCardNumber(): string {
  let partial = '428571';
  while (partial.length < 15) partial += String(randomInt(10));
  return `${partial}${luhnCheckDigit(partial)}`;
}

/** `428571******1234`: first six and last four, as the service shows card numbers. */
export const maskCardNumber = (cardNumber: string): string =>
  `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`;

export const hashPin = (cardId: string, pin: string): string =>
  createHash('sha256').update(`${cardId}:${pin}`).digest('hex');
