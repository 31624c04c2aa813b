import type { AuditLog } from '../core/audit/index.js';
import type { Logger } from '../core/log.js';
import type { PeriodicJob } from '../core/schedule/scheduler.js';
import { context, line, type SlackMessage, sections } from './render/message.js';
import type { SlackOutbox } from './store/outbox.js';

/**
 * The audit log's head (sequence and hash) as a message. Kept outside bankops's database, in Slack's
 * history, it reveals what a hash chain alone cannot: entries removed from the end of the log.
 */
export function anchorMessage(head: { seq: number; hash: string }, why: string): SlackMessage {
  const anchor = `${head.seq}:${head.hash}`;
  const text = `:anchor: Audit log head: entry ${head.seq}, hash \`${head.hash}\``;
  return {
    text,
    blocks: [
      ...sections(text),
      context(`${why}. Check the log against it with \`bankops audit verify --anchor ${anchor}\`.`),
    ],
  };
}

/** Today's date in UTC: one daily anchor per day, whatever the number of replicas or restarts. */
const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/** Queues the daily anchor; a second call on the same UTC day (another replica, a restart) queues nothing. */
export async function queueDailyAnchor(
  audit: AuditLog,
  outbox: SlackOutbox,
  channel: string,
  now: Date,
): Promise<boolean> {
  return outbox.enqueue(
    'chat.postMessage',
    { channel, ...anchorMessage(await audit.head(), `Daily anchor of ${utcDay(now)}`) },
    `audit-anchor:${utcDay(now)}`,
  );
}

export const ANCHOR_JOB = 'audit-anchor';

/** From `now` to five seconds past the next UTC midnight. */
const untilNextDay = (now: Date): number =>
  Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 5) - now.getTime();

/**
 * The daily anchor after the one `bankops serve` queues as it starts: at every UTC midnight of the
 * runtime's clock. Every replica runs it; the day's outbox key (`audit-anchor:<day>`) keeps one.
 */
export function dailyAnchorJob(
  audit: AuditLog,
  outbox: SlackOutbox,
  channel: string,
  log: Logger,
  now: Date,
): PeriodicJob {
  return {
    name: ANCHOR_JOB,
    everyMs: 24 * 3_600_000,
    firstAfterMs: untilNextDay(now),
    nextAfterMs: untilNextDay,
    run: async (at) => {
      await queueDailyAnchor(audit, outbox, channel, at).catch((error: unknown) =>
        log.error('slack: the daily audit anchor could not be queued', { error }),
      );
    },
  };
}

/** `/bank audit anchor`: posts the head now, and tells the person what was posted where. */
export async function askedAnchor(
  audit: AuditLog,
  outbox: SlackOutbox,
  channel: string | undefined,
  by: string,
): Promise<SlackMessage> {
  const head = await audit.head();
  if (channel === undefined) {
    return anchorMessage(
      head,
      'Not posted: BANKOPS_SLACK_AUDIT_CHANNEL is not set (it also gets one every day)',
    );
  }
  await outbox.enqueue('chat.postMessage', {
    channel,
    ...anchorMessage(head, `Posted at the request of <@${by}>`),
  });
  return line(`:anchor: Posted the audit log's head (entry ${head.seq}) to <#${channel}>.`);
}
