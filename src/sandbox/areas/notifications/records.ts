import type { Subscription } from './state.js';

/**
 * The API key as the list shows it: eight asterisks and the last four characters, or only
 * asterisks for keys too short to reveal any of them. Enough to tell keys apart, not to reuse one.
 */
export function maskKey(key: string | null): string | null {
  if (key === null) return null;
  return key.length >= 12 ? `********${key.slice(-4)}` : '********';
}

/** A subscription in the shape of the spec's "Notification subscription" record. */
export function toRecord(s: Subscription) {
  return {
    event_name: s.event_name,
    subscription_type: s.subscription_type,
    agent_code: s.agent_code,
    subagent_code: s.subagent_code,
    program_code: s.program_code,
    company_code: s.company_code,
    webhook_url: s.webhook_url,
    sender_email: s.sender_email,
    x_api_key: maskKey(s.api_key),
    created_by: s.created_by,
    updated_by: s.updated_by,
    created_time: s.created_time,
    updated_time: s.updated_time,
    sl_no: s.sl_no,
  };
}
