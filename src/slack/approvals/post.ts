import { createHash } from 'node:crypto';
import type { ApprovalView } from '../../core/approvals/types.js';
import { internalError } from '../../core/errors.js';
import type { SlackConfig } from '../config.js';
import { isPermanentRefusal } from '../store/outbox.js';
import { rateLimitedFor, slackRefusal } from '../web-api-errors.js';
import type { ApprovalServices } from './index.js';
import { approvalMessage } from './messages/approval.js';
import type { ApprovalMessage, ApprovalMessages } from './store.js';

/** The channel an approval is decided in: its rule's own, else the configured one. */
export const approvalChannel = (
  view: ApprovalView,
  config: Pick<SlackConfig, 'approvalsChannel'>,
): string | undefined => view.route?.slackChannel ?? config.approvalsChannel;

/**
 * Posts an approval's message once and knows where it is. The first post happens here, not through
 * the outbox, because every later change edits that message and needs its `ts`; the `ts` is stored
 * the moment Slack answers, and a claim in the database keeps two replicas from posting it twice.
 */

export const digest = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

export class ApprovalPoster {
  readonly messages: ApprovalMessages;
  readonly #services: ApprovalServices;
  readonly #aborts = new AbortController();

  constructor(services: ApprovalServices) {
    this.#services = services;
    this.messages = services.approvalMessages;
  }

  /** The rendered message of an approval as it stands now. */
  render(view: ApprovalView) {
    return approvalMessage(view, {
      policy: this.#services.executor.policy,
      registry: this.#services.registry,
    });
  }

  /**
   * The approval's message, posted now if it has none. Undefined when it has no channel, or Slack
   * refused it for good (the bot not in the channel…): logged, and tried again at its next change.
   * Throws when it should be tried again soon (Slack busy or down, another process posting).
   */
  async ensure(view: ApprovalView): Promise<{ message: ApprovalMessage; postedNow: boolean } | undefined> {
    const channel = approvalChannel(view, this.#services.config);
    if (channel === undefined) return undefined;
    const claim = await this.messages.claim(view.id, channel);
    if (claim === 'busy') throw internalError(`another process is posting the message of ${view.id}`);
    if (claim !== 'claimed') return { message: claim, postedNow: false };
    const content = this.render(view);
    let ts: string | undefined;
    try {
      const answer = (await this.#services.call('chat.postMessage', {
        channel,
        ...content,
        unfurl_links: false,
        unfurl_media: false,
      })) as { ts?: unknown };
      ts = typeof answer.ts === 'string' ? answer.ts : undefined;
    } catch (error) {
      await this.messages.release(view.id);
      if (isPermanentRefusal(error)) {
        this.#services.log.error(
          'slack: the approval could not be posted; it is tried again at its next change',
          {
            approvalId: view.id,
            channel,
            error: slackRefusal(error),
          },
        );
        return undefined;
      }
      await this.pauseIfRateLimited(error);
      throw error;
    }
    if (ts === undefined) {
      await this.messages.release(view.id);
      throw internalError(`Slack answered chat.postMessage for ${view.id} without a ts`);
    }
    await this.messages.posted(view.id, ts, digest(content));
    return { message: { approvalId: view.id, channel, ts }, postedNow: true };
  }

  /**
   * On a 429, waits as long as Slack asked before the caller gives the event back: the feed hands
   * it again after its own short pause, so `Retry-After` is honoured and the order kept.
   */
  async pauseIfRateLimited(error: unknown): Promise<void> {
    const wait = rateLimitedFor(error);
    if (wait === undefined) return;
    const ms = Math.max(1, wait) * 1000;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#aborts.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Ends the waits (at shutdown). */
  stop(): void {
    this.#aborts.abort();
  }
}
