import { invalid, unknownResource } from '../../errors.js';
import { isoUtcMs } from '../../validate.js';

/** Quote validity from the spec ("about 75 seconds"), judged by the sandbox clock. */
export const QUOTE_VALIDITY_MS = 75_000;

interface Quote {
  quoteId: string;
  expiresAtMs: number;
  usedBy: string | null;
}

/**
 * The quote `quoteId` if it can still be executed: it exists in `quotes` (not in `others`, the
 * other kind of quote), has not been used (a used quote is invalidated) and has not expired.
 */
export function usableQuote<Q extends Quote>(
  quotes: ReadonlyMap<string, Q>,
  others: ReadonlyMap<string, Quote>,
  quoteId: string,
  nowMs: number,
  kind: { name: string; otherName: string; endpoint: string },
): Q {
  const quote = quotes.get(quoteId);
  if (quote === undefined) {
    if (others.has(quoteId)) {
      throw invalid(
        `quoteId '${quoteId}' is ${kind.otherName}; this endpoint needs ${kind.name} from ${kind.endpoint}`,
      );
    }
    throw unknownResource('quote', quoteId);
  }
  if (quote.usedBy !== null) {
    throw invalid(
      `quote '${quoteId}' was already executed by '${quote.usedBy}' and is invalidated; request a new quote`,
    );
  }
  // `expiresAt` is the first instant at which the quote can no longer be executed.
  if (nowMs >= quote.expiresAtMs) {
    throw invalid(
      `quote '${quoteId}' expired at ${isoUtcMs(new Date(quote.expiresAtMs))}; request a new quote`,
    );
  }
  return quote;
}
