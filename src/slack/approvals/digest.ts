import type { ApprovalState, ApprovalView } from '../../core/approvals/types.js';
import type { PeriodicJob } from '../../core/schedule/scheduler.js';
import { approvalsChannels } from './break-glass.js';
import { type DigestTime, digestDueDay, formatDigestTime } from './digest-time.js';
import type { ApprovalServices } from './index.js';
import { type DigestContent, digestMessage, isEmptyDigest } from './messages/digest.js';
import { approvalChannel } from './post.js';

/** The digest looks every half minute: one clock reading, no query, until its time comes. */
const DIGEST_EVERY_MS = 30_000;

const DAY_MS = 24 * 3_600_000;
/** The most one list returns (newest first): the expired and failed of the last day are read from it. */
const LIST_LIMIT = 500;

export type DigestServices = Pick<ApprovalServices, 'config' | 'executor' | 'outbox' | 'log'>;

const emptyContent = (): DigestContent => ({
  waiting: [],
  expired: [],
  failed: [],
  unresolved: [],
  reviews: [],
});

/** The approvals of each channel, sorted into the digest's sections. */
async function gather(services: DigestServices, now: Date): Promise<Map<string, DigestContent>> {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  // What waits and what is unresolved: all of it. What expired or failed: the newest page, the
  // last 24 hours of it (more than 500 in a day is beyond a digest's use).
  const list = (state: ApprovalState) => services.executor.listApprovals({ state, limit: LIST_LIMIT });
  const [waiting, expired, failed, succeeded, unresolved] = await Promise.all([
    services.executor.listAllApprovals('pending'),
    list('expired'),
    list('failed'),
    list('succeeded'),
    services.executor.listAllApprovals('unresolved'),
  ]);
  const byChannel = new Map<string, DigestContent>();
  const add = (
    section: Exclude<keyof DigestContent, 'reviews'>,
    views: readonly ApprovalView[] | undefined,
  ) => {
    for (const view of views ?? []) {
      const channel = approvalChannel(view, services.config);
      if (channel === undefined) continue;
      const content = byChannel.get(channel) ?? emptyContent();
      content[section].push(view);
      byChannel.set(channel, content);
    }
  };
  add('waiting', waiting);
  add(
    'expired',
    expired?.filter((v) => v.expiresAt >= since),
  );
  add('failed', [
    ...(failed ?? []).filter((v) => v.updatedAt >= since),
    // Sent, then FAILED at the service: the approval succeeded, the money did not move.
    ...(succeeded ?? []).filter((v) => v.settlement?.outcome === 'failed' && v.settlement.checkedAt >= since),
  ]);
  add('unresolved', unresolved);
  // Break-glass reviews still open: in every approvals channel's digest until closed.
  const reviews = await services.executor.breakGlass.reviews();
  if (reviews.length > 0)
    for (const channel of approvalsChannels(services.executor.policy, services.config)) {
      const content = byChannel.get(channel) ?? emptyContent();
      content.reviews = reviews;
      byChannel.set(channel, content);
    }
  return byChannel;
}

/**
 * The morning digest (docs/slack.md "Reminders and the morning digest"): at `BANKOPS_SLACK_DIGEST`
 * in its zone, each approvals channel with something to say gets one message. Once per channel per
 * local day across replicas: the message is queued under the key `digest:<channel>:<day>`, which the
 * outbox keeps (sent or not), so a second replica's copy is dropped. A channel whose queueing fails
 * is tried again at the next run (the others are not held up). A process down at the time posts it
 * within the hour after; later, the day has none.
 */
export function digestJob(services: DigestServices, time: DigestTime): PeriodicJob {
  let doneDay: string | undefined;
  // The channels queued today while another failed (`<channel>:<day>`): not asked again.
  const doneChannels = new Set<string>();
  const at = formatDigestTime(time);
  return {
    name: 'digest',
    everyMs: DIGEST_EVERY_MS,
    async run(now) {
      const day = digestDueDay(time, now);
      if (day === undefined || day === doneDay) return;
      const policy = services.executor.policy;
      let failed = 0;
      for (const [channel, content] of await gather(services, now)) {
        if (isEmptyDigest(content) || doneChannels.has(`${channel}:${day}`)) continue;
        const key = `digest:${channel}:${day}`;
        const message = digestMessage(content, policy, day, at);
        try {
          await services.outbox.enqueue(
            'chat.postMessage',
            { channel, ...message, unfurl_links: false, unfurl_media: false },
            key,
          );
          doneChannels.add(`${channel}:${day}`);
        } catch (error) {
          failed += 1;
          services.log.warn('slack: a digest could not be queued; trying again at the next run', {
            channel,
            day,
            error,
          });
        }
      }
      if (failed === 0) {
        doneDay = day;
        doneChannels.clear();
      }
    },
  };
}
