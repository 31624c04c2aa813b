import type { PeriodicJob, Scheduler } from '../core/schedule/scheduler.js';
import { balanceAlertsJob } from './alerts/job.js';
import { digestJob } from './approvals/digest.js';
import { remindersJob } from './approvals/reminders.js';
import type { SlackServices } from './services.js';

/**
 * The Slack front end's scheduled work, all registered here when it starts in a long-running
 * process (`bankops serve`): reminders of approvals nobody voted on, the morning digest when
 * `BANKOPS_SLACK_DIGEST` is set, and the balance alerts' check. Reminders and digests are queued
 * under outbox dedupe keys and the balance check claims its slots through the scheduler, so
 * replicas on one database post each once. A second start on the same runtime adds nothing.
 */
export function scheduleSlackJobs(scheduler: Scheduler, services: SlackServices): void {
  const jobs: PeriodicJob[] = [remindersJob(services)];
  if (services.config.digest !== undefined) jobs.push(digestJob(services, services.config.digest));
  if (services.alerts !== undefined)
    jobs.push(balanceAlertsJob(services.alerts, scheduler, services.outbox, services.log));
  for (const job of jobs) if (!scheduler.has(job.name)) scheduler.every(job);
}
