import { internalError } from '../core/errors.js';
import type { SlackMessage } from './render/message.js';

/** What a response_url takes besides the message (Slack's interaction responses). */
export interface ReplyOptions {
  /** Replace the message this answer follows (the "working…" note, a page with a More button). */
  replace?: boolean;
  /** `in_channel` shows it to everyone; ephemeral (only the person who asked) by default. */
  inChannel?: boolean;
}

/** Sends an answer to the person who asked. */
export type Reply = (message: SlackMessage, options?: ReplyOptions) => Promise<void>;

/**
 * A reply through Slack's `response_url` (slash commands and interactions give one; a modal's
 * submission carries its command's in the view metadata): five uses within 30 minutes. It throws
 * on a non-2xx answer, as Bolt's `respond` does.
 */
export function replyTo(responseUrl: string, fetchFn: typeof fetch = fetch): Reply {
  return async (message, options = {}) => {
    const response = await fetchFn(responseUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        ...message,
        response_type: options.inChannel === true ? 'in_channel' : 'ephemeral',
        replace_original: options.replace === true,
      }),
    });
    if (!response.ok) throw internalError(`Slack refused the answer: HTTP ${response.status}`);
    await response.body?.cancel();
  };
}
