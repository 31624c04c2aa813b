import { webApi } from '@slack/bolt';
import { messageOf } from '../core/errors.js';

/**
 * Failed Web API calls, recognised by the error codes of `@slack/web-api` (every error it throws
 * carries one of `webApi.ErrorCode`), never by the shape of the object.
 */

const codeOf = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/** Slack answered and refused the call: its reason (`not_in_channel`, `channel_not_found`, …). */
export function slackRefusal(error: unknown): string | undefined {
  if (codeOf(error) !== webApi.ErrorCode.PlatformError) return undefined;
  return (error as webApi.WebAPIPlatformError).data.error;
}

/** Slack answered 429: how many seconds it asked to wait. */
export function rateLimitedFor(error: unknown): number | undefined {
  if (codeOf(error) !== webApi.ErrorCode.RateLimitedError) return undefined;
  return (error as webApi.WebAPIRateLimitedError).retryAfter;
}

/** What went wrong, in a few words: Slack's reason when it refused, else the error's message. */
export const describeSlackError = (error: unknown): string => slackRefusal(error) ?? messageOf(error);
