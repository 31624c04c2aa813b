import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: from a fast read (a few ms) to a slow payout or a Web API call that times out. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Every metric of `bankops serve`, on a registry of its own (never prom-client's global one, so
 * several servers can run in one process). docs/operations.md lists them; a test holds the two together.
 */
export function createInstruments() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const on = { registers: [registry] };
  return {
    registry,
    toolCalls: new Counter({
      name: 'bankops_tool_calls_total',
      help: 'Calls through the executor, by tool, front end and outcome (ok, refused, invalid, pending, failed)',
      labelNames: ['tool', 'front_end', 'outcome'] as const,
      ...on,
    }),
    toolSeconds: new Histogram({
      name: 'bankops_tool_call_duration_seconds',
      help: 'Time from a call reaching the executor to its result, by tool and front end',
      labelNames: ['tool', 'front_end'] as const,
      buckets: LATENCY_BUCKETS,
      ...on,
    }),
    serviceCalls: new Counter({
      name: 'bankops_service_calls_total',
      help: 'Attempts at the service, by client operation and HTTP status (or timeout, network, ...)',
      labelNames: ['operation', 'status'] as const,
      ...on,
    }),
    serviceSeconds: new Histogram({
      name: 'bankops_service_call_duration_seconds',
      help: 'Time of one attempt at the service, by client operation',
      labelNames: ['operation'] as const,
      buckets: LATENCY_BUCKETS,
      ...on,
    }),
    approvals: new Gauge({
      name: 'bankops_approvals',
      help: 'Approvals in the database, by state',
      labelNames: ['state'] as const,
      ...on,
    }),
    pending: new Gauge({
      name: 'bankops_approvals_pending',
      help: 'Approvals waiting for votes',
      ...on,
    }),
    oldestPending: new Gauge({
      name: 'bankops_approvals_oldest_pending_age_seconds',
      help: 'Age of the oldest approval waiting for votes (0 when none waits)',
      ...on,
    }),
    unresolved: new Gauge({
      name: 'bankops_approvals_unresolved',
      help: 'Approvals whose outcome at the service is unknown and waits for a person',
      ...on,
    }),
    takenOver: new Counter({
      name: 'bankops_executions_taken_over_total',
      help: "Executions this process took over after their holder's lease ran out (a replica or CLI process that stopped)",
      ...on,
    }),
    feedLag: new Gauge({
      name: 'bankops_feed_lag_events',
      help: 'Approval change-feed events a consumer has not handled yet (head minus its cursor)',
      labelNames: ['consumer'] as const,
      ...on,
    }),
    slackCalls: new Counter({
      name: 'bankops_slack_api_calls_total',
      help: 'Slack Web API calls, by method and result (ok, error)',
      labelNames: ['method', 'result'] as const,
      ...on,
    }),
    outbox: new Gauge({
      name: 'bankops_slack_outbox_backlog',
      help: 'Slack messages queued in the outbox and not sent yet',
      ...on,
    }),
    auditWritten: new Counter({
      name: 'bankops_audit_entries_written_total',
      help: 'Audit log entries this process committed',
      ...on,
    }),
    auditWaiting: new Gauge({
      name: 'bankops_audit_waiting_entries',
      help: 'Audit entries recorded and not yet committed (reads wait here while the database is away)',
      ...on,
    }),
    lastVerify: new Gauge({
      name: 'bankops_audit_last_verify_timestamp_seconds',
      help: 'When this process last checked the whole audit chain (Unix time; 0 when never)',
      ...on,
    }),
    up: new Gauge({
      name: 'bankops_database_up',
      help: 'Whether the last scrape reached the database (1) or not (0)',
      ...on,
    }),
  };
}

export type Instruments = ReturnType<typeof createInstruments>;
