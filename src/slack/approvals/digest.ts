import type { ApprovalState, ApprovalView } from '../../core/approvals/types.js';
import type { PeriodicJob } from '../../core/schedule/scheduler.js';
import { type DigestContent, digestMessage, isEmptyDigest } from './digest-message.js';
import { type DigestTime, digestDueDay, formatDigestTime } from './digest-time.js';
import type { ApprovalServices } from './index.js';
import { approvalChannel } from './requested.js';

/** The digest looks every half minute: one clock reading, no query, until its time comes. */
export const DIGEST_EVERY_MS = 30_000;

const DAY_MS = 24 * 3_600_000;
/** The most one list returns (newest first): a digest of more than that is long enough. */
const LIST_LIMIT = 500;

export type DigestServices = Pick<ApprovalServices, 'config' | 'executor' | 'outbox' | 'log'> & {
  /** Claims one slot across replicas (`Scheduler.once`). */
  once(key: string): Promise<boolean>;
};

const emptyContent = (): DigestContent => ({ waiting: [], expired: [], failed: [], unresolved: [] });

/** The approvals of each channel, sorted into the digest's sections. */
async function gather(services: DigestServices, now: Date): Promise<Map<string, DigestContent>> {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const list = (state: ApprovalState) => services.executor.listApprovals({ state, limit: LIST_LIMIT });
  const [waiting, expired, failed, succeeded, unresolved] = await Promise.all(
    (['pending', 'expired', 'failed', 'succeeded', 'unresolved'] as const).map(list),
  );
  const byChannel = new Map<string, DigestContent>();
  const add = (section: keyof DigestContent, views: readonly ApprovalView[] | undefined) => {
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
  return byChannel;
}

/**
 * The morning digest (docs/slack.md "Reminders and the morning digest"): at `BANKOPS_SLACK_DIGEST`
 * in its zone, each approvals channel with something to say gets one message. Once per channel per
 * local day across replicas: the slot `digest:<channel>:<day>` is claimed before the message is
 * queued (under the same key in the outbox). A process down at the time posts it within the hour
 * after; later, the day has none.
 */
export function digestJob(services: DigestServices, time: DigestTime): PeriodicJob {
  let doneDay: string | undefined;
  const at = formatDigestTime(time);
  return {
    name: 'digest',
    everyMs: DIGEST_EVERY_MS,
    async run(now) {
      const day = digestDueDay(time, now);
      if (day === undefined || day === doneDay) return;
      const policy = services.executor.policy;
      for (const [channel, content] of await gather(services, now)) {
        if (isEmptyDigest(content)) continue;
        const key = `digest:${channel}:${day}`;
        if (!(await services.once(key))) continue;
        const message = digestMessage(content, policy, day, at);
        await services.outbox.enqueue(
          'chat.postMessage',
          { channel, ...message, unfurl_links: false, unfurl_media: false },
          key,
        );
      }
      doneDay = day;
    },
  };
}
