import { invalid } from '../../errors.js';
import type { SandboxContext } from '../../types.js';
import { EVENT_NAMES, type EventName, isCatalogEvent } from './catalog.js';

/** The system sender used for type `n` when no whitelisted `sender_email` is given. */
export const DEFAULT_SENDER = 'notifications@sandbox.bankops.test';

/** Addresses "whitelisted by the operator's support": the configured user and the system sender. */
export function whitelistedSenders(ctx: SandboxContext): string[] {
  return [ctx.credentials.userEmail.toLowerCase(), DEFAULT_SENDER];
}

export function checkProgram(ctx: SandboxContext, value: string): void {
  if (value !== ctx.credentials.programCode) throw invalid(`unknown program_code '${value}'`);
}

export function checkCompany(ctx: SandboxContext, value: string): void {
  if (value !== ctx.credentials.companyId) throw invalid(`unknown company_code '${value}'`);
}

export function checkEvent(value: string): EventName {
  if (isCatalogEvent(value)) return value;
  throw invalid(`event_name: '${value}' is not a subscribable event (catalog: ${EVENT_NAMES.join(', ')})`);
}

const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL without user info (fetch refuses credentials in URLs). */
export function checkWebhookUrl(value: string): string {
  if (value.length > MAX_URL_LENGTH)
    throw invalid(`webhook_url: must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('webhook_url: must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('webhook_url: must be an absolute http or https URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid('webhook_url: must not contain user credentials; use the API key field');
  }
  return url.toString();
}

const MAX_KEY_LENGTH = 512;

/**
 * The subscription's API key from either spelling. The key is sent as an HTTP header on every
 * delivery, so it must be a valid header value; messages never repeat it.
 */
export function pickApiKey(body: { x_api_key?: string | undefined; 'x-api-key'?: string | undefined }) {
  const a = body.x_api_key;
  const b = body['x-api-key'];
  if (a !== undefined && b !== undefined && a !== b) {
    throw invalid('x_api_key and x-api-key are both given with different values; send one of them');
  }
  const key = a ?? b;
  if (key === undefined) return undefined;
  if (key.length > MAX_KEY_LENGTH) throw invalid(`x_api_key: must be at most ${MAX_KEY_LENGTH} characters`);
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw invalid('x_api_key: must be printable ASCII without spaces (it is sent as an HTTP header)');
  }
  return key;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The sender of a type `n` subscription: the requested address when whitelisted, otherwise the
 * system sender, with a note for the answer's message (the spec makes this a fallback, not a failure).
 */
export function resolveSender(
  ctx: SandboxContext,
  requested: string | undefined,
  current: string | null,
): { sender: string; note?: string } {
  if (requested === undefined) return { sender: current ?? DEFAULT_SENDER };
  if (!EMAIL.test(requested)) throw invalid('sender_email: must be an e-mail address');
  if (whitelistedSenders(ctx).includes(requested.toLowerCase())) return { sender: requested };
  return {
    sender: DEFAULT_SENDER,
    note: `sender_email '${requested}' is not whitelisted; the default sender ${DEFAULT_SENDER} is used`,
  };
}
