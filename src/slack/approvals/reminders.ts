import type { WaitingApproval } from '../../core/approvals/types.js';
import type { PeriodicJob } from '../../core/schedule/scheduler.js';
import type { ApprovalServices } from './index.js';
import { reminderMessage } from './reminder-message.js';
import { approvalChannel } from './requested.js';

/** How often the reminders look: on time to the half minute, and one indexed query when idle. */
export const REMINDERS_EVERY_MS = 30_000;

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

export type ReminderServices = Pick<
  ApprovalServices,
  'config' | 'executor' | 'approvalMessages' | 'outbox' | 'log'
> & {
  /** Claims one slot across replicas (`Scheduler.once`). */
  once(key: string): Promise<boolean>;
};

/**
 * Reminders of approvals nobody voted on (docs/slack.md "Reminders and the morning digest"). Each
 * run reads the pending approvals once (`waitingApprovals`: one indexed query); only one whose
 * reminder is due is read whole.
 * A reminder is a reply in the approval message's thread, sent once across replicas: the slot
 * (`reminder:<approval>:<n>`) is claimed first, and the outbox drops a second copy of its key. A
 * crash between the claim and the queueing loses that reminder rather than sending it twice.
 */
export function remindersJob(services: ReminderServices): PeriodicJob {
  // The slots this process knows are done (sent here, claimed elsewhere, or not wanted), per approval.
  const done = new Map<string, Set<number>>();
  const isDone = (id: string, n: number) => done.get(id)?.has(n) === true;
  const markDone = (id: string, n: number) => {
    const slots = done.get(id) ?? new Set<number>();
    slots.add(n);
    done.set(id, slots);
  };

  const remind = async (row: WaitingApproval, n: number, of: number): Promise<void> => {
    const view = await services.executor.getApproval(row.id);
    if (view === undefined || view.state !== 'pending' || view.approvals.length > 0) {
      markDone(row.id, n);
      return;
    }
    // No channel to post it in: nothing to reply to, now or later.
    if (approvalChannel(view, services.config) === undefined) {
      markDone(row.id, n);
      return;
    }
    const message = await services.approvalMessages.get(row.id);
    // Not posted yet (the feed catches up, or Slack refused it): asked again at the next run.
    if (message === undefined) return;
    const key = `reminder:${row.id}:${n}`;
    const mine = await services.once(key);
    markDone(row.id, n);
    if (!mine) return;
    const content = reminderMessage(view, services.executor.policy, n, of);
    await services.outbox.enqueue(
      'chat.postMessage',
      { channel: message.channel, thread_ts: message.ts, ...content, unfurl_links: false },
      key,
    );
  };

  return {
    name: 'reminders',
    everyMs: REMINDERS_EVERY_MS,
    async run(now) {
      const rows = await services.executor.waitingApprovals();
      const waiting = new Set(rows.map((row) => row.id));
      for (const id of done.keys()) if (!waiting.has(id)) done.delete(id);
      for (const row of rows) {
        const times = reminderTimes(Date.parse(row.createdAt), Date.parse(row.expiresAt), row.reminderMs);
        const n = dueReminder(times, now.getTime());
        if (n === undefined || isDone(row.id, n)) continue;
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
