import type { BalanceAlerts } from '../../core/alerts/index.js';
import type { Logger } from '../../core/log.js';
import type { PeriodicJob, Scheduler } from '../../core/schedule/scheduler.js';
import type { SlackOutbox } from '../store/outbox.js';
import { alertPostMessage } from './messages.js';

const ALERTS_JOB = 'balance-alerts';

/**
 * The balance check as a periodic job. Each slot of `intervalMs` (slot n covers n·interval to
 * (n+1)·interval on the runtime's clock) is claimed first, so with several replicas one of them
 * reads the balances in that slot and the others do nothing; each post goes through the outbox
 * with the alert's dedupe key, so a post queued twice (a crash between the queue and the state) is
 * sent once.
 */
export function balanceAlertsJob(
  alerts: Pick<BalanceAlerts, 'check' | 'intervalMs'>,
  scheduler: Pick<Scheduler, 'once'>,
  outbox: Pick<SlackOutbox, 'enqueue'>,
  log: Logger,
): PeriodicJob {
  const everyMs = alerts.intervalMs;
  return {
    name: ALERTS_JOB,
    everyMs,
    run: async (now) => {
      if (!(await scheduler.once(`${ALERTS_JOB}:${Math.floor(now.getTime() / everyMs)}`))) return;
      const posted = await alerts.check(async (post) => {
        const message = alertPostMessage(post);
        await outbox.enqueue('chat.postMessage', { channel: post.alert.channel, ...message }, post.dedupeKey);
      });
      if (posted > 0) log.info('balance alerts posted', { count: posted });
    },
  };
}
