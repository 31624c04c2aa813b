import type { FeedFollower } from '../../core/approvals/follow.js';
import {
  APPROVAL_EVENT_KINDS,
  type ApprovalEvent,
  type ApprovalEventKind,
  type ApprovalView,
} from '../../core/approvals/types.js';
import { internalError } from '../../core/errors.js';
import { optional } from '../../core/optional.js';
import type { OutboxCall } from '../store/outbox-rows.js';
import { slackRefusal } from '../web-api-errors.js';
import { breakGlassPosts } from './break-glass.js';
import type { ApprovalServices } from './index.js';
import { requesterNotice } from './messages/requester-notice.js';
import { threadReply } from './messages/thread-reply.js';
import { requesterAddress } from './people.js';
import { type ApprovalPoster, digest } from './post.js';

/** The feed consumer's name: its position is kept in the database under it. */
const CONSUMER = 'slack-approvals';

/** Changes that get a line in the thread: every decision and what became of it. */
const THREAD: ReadonlySet<ApprovalEventKind> = new Set(
  APPROVAL_EVENT_KINDS.filter((kind) => kind !== 'opened' && kind !== 'executing'),
);

/**
 * Changes the requester hears of: the same, but their own cancelling and a takeover between replicas
 * (`executing` is followed by its end).
 */
const REQUESTER: ReadonlySet<ApprovalEventKind> = new Set(
  [...THREAD].filter((kind) => kind !== 'cancelled' && kind !== 'taken_over'),
);

/** A retry that a person asked for (reconciling) is news; the `executing` of a vote is not. */
const inThread = (event: ApprovalEvent): boolean =>
  THREAD.has(event.kind) || (event.kind === 'executing' && event.detail !== undefined);

/** A vote that completed the quorum is not news of its own: the outcome follows at once. */
const toRequester = (event: ApprovalEvent, view: ApprovalView): boolean =>
  REQUESTER.has(event.kind) &&
  !(event.kind === 'voted' && event.attempt === view.attempt && view.state !== 'pending');

/**
 * Turns each change of an approval, from any process, into Slack: the message posted or edited in
 * place, a line in its thread, a notice to the requester. At least once, in order (the core's feed),
 * by one replica of the consumer group where the store shares groups (PostgreSQL);
 * exactly once in Slack, because what is sent after the first post goes through the outbox under a
 * key made of the event's sequence number, in one transaction: a repeated event queues nothing new.
 */
export class ApprovalFollower {
  readonly #services: ApprovalServices;
  readonly #poster: ApprovalPoster;
  /** Direct-message channels by user (`conversations.open` answers the same one every time). */
  readonly #dms = new Map<string, string>();
  #follower: FeedFollower | undefined;

  constructor(services: ApprovalServices, poster: ApprovalPoster) {
    this.#services = services;
    this.#poster = poster;
  }

  start(): void {
    this.#follower ??= this.#services.executor.followApprovals({
      consumer: CONSUMER,
      handle: (event) => this.handle(event),
      // A new installation starts at the end; the approvals still waiting are posted by `catchUp`.
      startAt: 'end',
      // One replica at a time hands an event to Slack (PostgreSQL); the outbox keys and message
      // claims below keep Slack's side once even when a replica dies mid-turn and another repeats it.
      group: true,
      log: this.#services.log,
    });
  }

  /** Everything committed so far handled (tests, benchmarks, shutdown). */
  async drain(): Promise<void> {
    await this.#follower?.drain();
    await this.#services.outbox.settled();
  }

  async stop(): Promise<void> {
    this.#poster.stop();
    await this.#follower?.stop();
    this.#follower = undefined;
  }

  /**
   * Posts every waiting approval that has no message yet (before the feed's position, or a first
   * start), however many wait.
   */
  async catchUp(): Promise<number> {
    let posted = 0;
    for (const view of await this.#services.executor.listAllApprovals('pending')) {
      if ((await this.#poster.messages.get(view.id)) !== undefined) continue;
      if ((await this.#poster.ensure(view))?.postedNow) posted += 1;
    }
    return posted;
  }

  async handle(event: ApprovalEvent): Promise<void> {
    const view = await this.#services.executor.getApproval(event.approvalId);
    if (view === undefined) return;
    const posted = await this.#poster.ensure(view);
    const notice = toRequester(event, view) ? await this.#requesterChannel(view) : undefined;
    const { outbox } = this.#services;
    const policy = this.#services.executor.policy;
    const key = (what: string) => `approval:${event.seq}:${what}`;
    let edit: { rendered: string; call: OutboxCall } | undefined;
    const calls: OutboxCall[] = [];
    if (posted !== undefined) {
      const { channel, ts } = posted.message;
      if (!posted.postedNow) {
        const content = this.#poster.render(view);
        edit = {
          rendered: digest(content),
          call: { method: 'chat.update', args: { channel, ts, ...content }, dedupeKey: key('update') },
        };
      }
      if (inThread(event)) {
        calls.push({
          method: 'chat.postMessage',
          args: { channel, thread_ts: ts, ...threadReply(event, view, policy), unfurl_links: false },
          dedupeKey: key('thread'),
        });
      }
    }
    if (notice !== undefined) {
      calls.push({
        method: 'chat.postMessage',
        args: {
          channel: notice.channel,
          ...optional('thread_ts', notice.thread),
          ...requesterNotice(event, view, policy, posted?.message.channel),
          unfurl_links: false,
        },
        dedupeKey: key('requester'),
      });
    }
    if (event.kind === 'break_glass') {
      const [review] = await this.#services.executor.breakGlass.reviews(view.id);
      calls.push(...breakGlassPosts(event, view, review, policy, this.#services.config));
    }
    // The edit's digest and every call commit together: a repeated event finds both and queues nothing.
    await this.#services.approvalMessages.queueChanges(view.id, edit, calls);
    outbox.wake();
    this.#services.log.debug('slack: approval change handled', {
      seq: event.seq,
      approvalId: event.approvalId,
      kind: event.kind,
    });
  }

  /** The requester's thread, or a direct message channel with them; none when they have no Slack user. */
  async #requesterChannel(view: ApprovalView): Promise<{ channel: string; thread?: string } | undefined> {
    const address = requesterAddress(this.#services.executor.policy, view);
    if (address === undefined) return undefined;
    if ('channel' in address) return address;
    const known = this.#dms.get(address.user);
    if (known !== undefined) return { channel: known };
    try {
      const answer = (await this.#services.call('conversations.open', { users: address.user })) as {
        channel?: { id?: string };
      };
      const channel = answer.channel?.id;
      if (channel === undefined) throw internalError('conversations.open answered without a channel');
      this.#dms.set(address.user, channel);
      return { channel };
    } catch (error) {
      // Slack said no (a deactivated user, one the bot cannot write to): a retry will not help.
      const refusal = slackRefusal(error);
      if (refusal !== undefined) {
        this.#services.log.warn('slack: the requester cannot be sent a direct message', {
          approvalId: view.id,
          user: address.user,
          error: refusal,
        });
        return undefined;
      }
      await this.#poster.pauseIfRateLimited(error);
      throw error;
    }
  }
}
