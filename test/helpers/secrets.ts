/**
 * Whether `text` holds `secret`.
 *
 * A short secret such as a four-digit PIN turns up by chance inside hashes, UUIDs and timestamps
 * (a hex hash holds given four digits about once in 65,536 positions; a UUID v4's third group is
 * `4xxx`), which says nothing about a leak. So a short secret counts only as a whole token, not
 * flanked by a letter, a digit or a hyphen, as a leaked value stands between quotes, spaces or
 * other punctuation. A long one counts anywhere.
 */
export function containsSecret(text: string, secret: string): boolean {
  if (secret.length >= SHORT) return text.includes(secret);
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![0-9A-Za-z-])${escaped}(?![0-9A-Za-z-])`).test(text);
}

const SHORT = 10;
