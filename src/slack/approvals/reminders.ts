import type { WaitingApproval } from '../../core/approvals/types.js';
import type { PeriodicJob } from '../../core/schedule/scheduler.js';
import type { ApprovalServices } from './index.js';
import { reminderMessage } from './messages/reminder.js';
import { approvalChannel } from './post.js';

/** How often the reminders look: on time to the half minute, and one indexed query when idle. */
const REMINDERS_EVERY_MS = 30_000;

/** A second reminder closer than this to the first is not worth a second notification. */
const MIN_GAP_MS = 60_000;

/**
 * When an approval's reminders fall due: `reminder` after it opened (nobody voted by then), and
 * halfway between that and the deadline. None when reminders are off or the first would come after
 * the deadline; never more than two.
 */
export function reminderTimes(
  createdAt: number,
  expiresAt: number,
  reminderMs: number | undefined,
): number[] {
  if (reminderMs === undefined) return [];
  const first = createdAt + reminderMs;
  if (first >= expiresAt) return [];
  const second = first + (expiresAt - first) / 2;
  return second - first < MIN_GAP_MS ? [first] : [first, second];
}

/** The reminder due at `now` (1 or 2): the latest whose time has passed. A slot missed is not made up. */
export function dueReminder(times: readonly number[], now: number): number | undefined {
  let due: number | undefined;
  for (const [i, at] of times.entries()) if (at <= now) due = i + 1;
  return due;
}

/** The outbox key of one reminder: once per approval, attempt and slot, across replicas. */
const reminderKey = (row: Pick<WaitingApproval, 'id' | 'attempt'>, n: number): string =>
  `reminder:${row.id}:${row.attempt}:${n}`;

export type ReminderServices = Pick<
  ApprovalServices,
  'config' | 'executor' | 'approvalMessages' | 'outbox' | 'log'
>;

/**
 * Reminders of approvals nobody voted on (docs/slack.md "Reminders and the morning digest"). Each
 * run reads the pending approvals once (`waitingApprovals`: one indexed query); only one whose
 * reminder is due is read whole.
 * A reminder is a reply in the approval message's thread, sent once across replicas: it is queued
 * under the key `reminder:<approval>:<attempt>:<n>`, and the outbox keeps one row per key (sent or
 * not), so a second replica's copy is dropped. A queueing that fails is tried again at the next run.
 * A new quote (attempt N+1) is a new question with its own deadline: its reminders count from when
 * that attempt began.
 */
export function remindersJob(services: ReminderServices): PeriodicJob {
  // The slots this process knows are done (queued here or elsewhere, or not wanted), per approval
  // and attempt (`<id>:<attempt>`).
  const done = new Map<string, Set<number>>();
  const slotOf = (row: WaitingApproval) => `${row.id}:${row.attempt}`;
  const isDone = (row: WaitingApproval, n: number) => done.get(slotOf(row))?.has(n) === true;
  const markDone = (row: WaitingApproval, n: number) => {
    const slots = done.get(slotOf(row)) ?? new Set<number>();
    slots.add(n);
    done.set(slotOf(row), slots);
  };

  const remind = async (row: WaitingApproval, n: number, of: number): Promise<void> => {
    const view = await services.executor.getApproval(row.id);
    if (
      view === undefined ||
      view.state !== 'pending' ||
      view.attempt !== row.attempt ||
      view.approvals.length > 0
    ) {
      markDone(row, n);
      return;
    }
    // No channel to post it in: nothing to reply to, now or later.
    if (approvalChannel(view, services.config) === undefined) {
      markDone(row, n);
      return;
    }
    const message = await services.approvalMessages.get(row.id);
    // Not posted yet (the feed catches up, or Slack refused it): asked again at the next run.
    if (message === undefined) return;
    const content = reminderMessage(view, services.executor.policy, n, of);
    // Queued, or already queued by a replica (the outbox keeps the key): done either way. A throw
    // leaves the slot open for the next run.
    await services.outbox.enqueue(
      'chat.postMessage',
      { channel: message.channel, thread_ts: message.ts, ...content, unfurl_links: false },
      reminderKey(row, n),
    );
    markDone(row, n);
  };

  return {
    name: 'reminders',
    everyMs: REMINDERS_EVERY_MS,
    async run(now) {
      const rows = await services.executor.waitingApprovals();
      const waiting = new Set(rows.map(slotOf));
      for (const slot of done.keys()) if (!waiting.has(slot)) done.delete(slot);
      for (const row of rows) {
        const times = reminderTimes(
          Date.parse(row.attemptStartedAt),
          Date.parse(row.expiresAt),
          row.reminderMs,
        );
        const n = dueReminder(times, now.getTime());
        if (n === undefined || isDone(row, n)) continue;
        try {
          await remind(row, n, times.length);
        } catch (error) {
          services.log.warn('slack: a reminder could not be sent; trying again at the next run', {
            approvalId: row.id,
            error,
          });
        }
      }
    },
  };
}
