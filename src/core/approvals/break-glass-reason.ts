import { sanitizeText } from '../redact.js';

/** The longest break-glass reason: reviewers read it whole, and the audit entry keeps it whole. */
export const MAX_BREAK_GLASS_REASON = 500;

/** C0 and C1 controls (newline, ESC…) and the bidirectional overrides that reorder what is shown. */
const CONTROL = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/**
 * Why a break-glass reason (or a review close's) cannot be taken, or undefined: it is signed with
 * the passkey, kept in the audit entry and the review, and printed to reviewers, so it must reach
 * each of them unchanged. `sanitized` is what the audit log would keep of a text (the log's own,
 * with its known secrets, in the engine; `sanitizeText` where the log is not at hand).
 */
export function reasonProblem(
  reason: string,
  sanitized: (text: string) => string = sanitizeText,
): string | undefined {
  const why = reason.trim();
  if (why.length > MAX_BREAK_GLASS_REASON)
    return `the reason is ${why.length} characters long; at most ${MAX_BREAK_GLASS_REASON}`;
  if (CONTROL.test(why)) return 'the reason must be one line of plain text, without control characters';
  if (sanitized(why) !== why) return 'the reason must not hold a card number or a token';
  return undefined;
}
