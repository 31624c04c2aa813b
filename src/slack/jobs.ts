import type { PeriodicJob, Scheduler } from '../core/schedule/scheduler.js';
import { balanceAlertsJob } from './alerts/job.js';
import { digestJob } from './approvals/digest.js';
import { remindersJob } from './approvals/reminders.js';
import { dailyAnchorJob } from './audit-anchor.js';
import type { SlackServices } from './services.js';

/**
 * The Slack front end's scheduled work, all registered here when it starts in a long-running
 * process (`bankops serve`): reminders of approvals nobody voted on, the morning digest when
 * `BANKOPS_SLACK_DIGEST` is set, the balance alerts' check, and the daily audit anchor when
 * `BANKOPS_SLACK_AUDIT_CHANNEL` is set. Reminders, digests and anchors are queued under outbox
 * dedupe keys and the balance check claims its slots through the scheduler, so replicas on one
 * database post each once. A second start on the same runtime adds nothing.
 */
export function scheduleSlackJobs(scheduler: Scheduler, services: SlackServices): void {
  const jobs: PeriodicJob[] = [remindersJob(services)];
  if (services.config.digest !== undefined) jobs.push(digestJob(services, services.config.digest));
  if (services.alerts !== undefined)
    jobs.push(balanceAlertsJob(services.alerts, scheduler, services.outbox, services.log));
  const channel = services.config.auditChannel;
  if (channel !== undefined)
    jobs.push(dailyAnchorJob(services.audit, services.outbox, channel, services.log, scheduler.clock.now()));
  for (const job of jobs) if (!scheduler.has(job.name)) scheduler.every(job);
}
