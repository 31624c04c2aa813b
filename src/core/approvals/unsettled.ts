import type { Failure } from '../results.js';

const UNSURE_KINDS: ReadonlySet<string> = new Set(['timeout', 'network', 'invalid_response']);

/**
 * True when a failed execution may have acted at the service, or may succeed if sent again: no
 * answer (timeout, network), an answer we could not read, a 5xx, a 429. Such an approval is not
 * `failed`: marking it so would invite a second request for money that may already have left. It is
 * sent again with the same request id and checkpoints, which the service deduplicates.
 */
export function isUnsettled(failure: Failure): boolean {
  if (UNSURE_KINDS.has(failure.kind)) return true;
  return failure.kind === 'service' && (failure.httpStatus === 429 || (failure.httpStatus ?? 0) >= 500);
}
