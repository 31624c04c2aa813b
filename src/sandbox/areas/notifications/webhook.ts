import type { WebhookDelivery } from './state.js';

/** Per-attempt timeout, and the default waits between attempts (3 attempts in all). */
export const DELIVERY_TIMEOUT_MS = 5000;
export const WEBHOOK_BACKOFF_MS: readonly number[] = [200, 1000];

export interface WebhookRequest {
  url: string;
  apiKey: string;
  /** The waits between attempts: one attempt more than waits. */
  backoffMs: readonly number[];
  eventId: string;
  payload: string;
}

// Real time, not the sandbox clock: these are waits on real network I/O. Unref'd so a pending
// retry never keeps a closing process alive.
const wait = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** A log-safe description of a failed attempt; the API key is scrubbed in case a library echoed it. */
function describeFailure(error: unknown, apiKey: string): string {
  let text: string;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    text = `no answer within ${DELIVERY_TIMEOUT_MS} ms`;
  } else if (error instanceof Error) {
    text = error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
  } else {
    text = String(error);
  }
  return text.split(apiKey).join('***');
}

/**
 * POSTs one event to one webhook, retrying on network errors and non-2xx answers, and records
 * progress in `entry` (which lives in the area's delivery log).
 */
export async function postWebhook(entry: WebhookDelivery, request: WebhookRequest): Promise<void> {
  const maxAttempts = request.backoffMs.length + 1;
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    entry.attempts = attempt;
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': request.apiKey,
          'x-event-id': request.eventId,
          'x-delivery-attempt': String(attempt),
          'user-agent': 'bankops-sandbox',
        },
        body: request.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      entry.last_status_code = response.status;
      if (response.status >= 200 && response.status < 300) {
        entry.status = 'delivered';
        delete entry.last_error;
        return;
      }
      entry.last_error = `webhook answered HTTP ${response.status}`;
    } catch (error) {
      entry.last_error = describeFailure(error, request.apiKey);
    }
    const backoff = request.backoffMs[attempt - 1];
    if (backoff !== undefined) await wait(backoff);
  }
  entry.status = 'failed';
}
