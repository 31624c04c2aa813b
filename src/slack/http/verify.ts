import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack's window: a request signed more than five minutes away from now is refused (replays). */
const MAX_SKEW_SECONDS = 5 * 60;

export type Verification = { ok: true } | { ok: false; reason: string };

/**
 * Checks a request to `/slack/events` as Slack signs it: `v0=` + hex HMAC-SHA256 of
 * `v0:<timestamp>:<raw body>` under the signing secret, compared in constant time, with a timestamp
 * within five minutes of now in either direction (Bolt's own check only refuses old ones).
 */
export function verifySlackSignature(
  signingSecret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: Buffer,
  nowMs: number = Date.now(),
): Verification {
  const { timestamp, signature } = headers;
  if (timestamp === undefined || signature === undefined) {
    return { ok: false, reason: 'missing x-slack-request-timestamp or x-slack-signature' };
  }
  if (!/^\d{1,12}$/.test(timestamp))
    return { ok: false, reason: 'x-slack-request-timestamp is not a number' };
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > MAX_SKEW_SECONDS) {
    return { ok: false, reason: 'x-slack-request-timestamp is more than 5 minutes away from now' };
  }
  const expected = Buffer.from(
    `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(rawBody).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'signature mismatch' };
  }
  return { ok: true };
}
