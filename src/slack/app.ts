import type { IncomingMessage, ServerResponse } from 'node:http';
import { App, type Logger as BoltLogger, SocketModeReceiver } from '@slack/bolt';
import type { BalanceAlerts } from '../core/alerts/index.js';
import type { AuditLog } from '../core/audit/index.js';
import type { Executor } from '../core/executor.js';
import type { Logger } from '../core/log.js';
import { optional } from '../core/optional.js';
import type { PasskeyService } from '../core/passkeys/index.js';
import type { PayeeDirectory } from '../core/payees.js';
import type { Registry } from '../core/registry.js';
import type { Scheduler } from '../core/schedule/scheduler.js';
import type { ToolDefaults } from '../core/tool.js';
import type { ServiceWebhooks } from '../core/webhooks.js';
import * as answers from './answers/index.js';
import { formatDigestTime } from './approvals/digest-time.js';
import { createSlackApprovals, type SlackApprovals } from './approvals/index.js';
import { queueDailyAnchor } from './audit-anchor.js';
import * as commands from './commands/index.js';
import { type SlackConfig, slackSecrets } from './config.js';
import * as forms from './forms/index.js';
import { SharedReceiver } from './http/receiver.js';
import { scheduleSlackJobs } from './jobs.js';
import { boltLogger } from './log.js';
import { type ActorContext, resolveActor } from './middleware/actor.js';
import { answerDatabaseDown } from './middleware/database.js';
import { handleEventsOnce, Inflight } from './middleware/once.js';
import * as passkeys from './passkeys/index.js';
import { buildSlackServices, type SlackServices } from './services.js';
import { SlackOutbox } from './store/outbox.js';
import type { SlackStores } from './store/stores.js';
import { serviceWebhookHandler } from './subscriptions/webhook.js';

export interface SlackAppOptions {
  config: SlackConfig;
  runtime: {
    executor: Executor;
    registry: Registry;
    audit: AuditLog;
    log: Logger;
    payees?: PayeeDirectory;
    webhooks: ServiceWebhooks;
    passkeys?: PasskeyService;
    /** Reminders and the digest run on it (src/slack/jobs.ts). */
    scheduler: Scheduler;
    /** The balance alerts' check, run by the Slack front end's job; absent: none runs. */
    alerts?: BalanceAlerts;
  };
  /** The front end's own stores (answers, seen events, the outbox, deliveries, approval messages). */
  stores: SlackStores;
  /** The configured company, program and agent codes (subscriptions are made with them). */
  defaults: ToolDefaults;
  /** `BANKOPS_PUBLIC_URL`: where Slack and the service reach `bankops serve` (a proxy or tunnel). */
  publicUrl?: string;
  /** How long user-group members are trusted, and how often a miss may refresh them (tests). */
  groups?: { ttlMs?: number; missRefreshMs?: number };
  /** On stop, how long requests being handled may take to finish (default 10 s). */
  drainMs?: number;
  /**
   * Answer Slack only after the listener finished. Production acknowledges at once (false, the
   * default); a test that reads a listener's effect from the HTTP answer itself may ask for it.
   */
  processBeforeResponse?: boolean;
  /** After how long a "working…" note is shown (default 1 s). */
  workingAfterMs?: number;
  /** Retries of a Web API call inside one attempt (default 2; the outbox retries later anyway). */
  webApiRetries?: number;
  /** How often the outbox looks for work queued by other processes (default 1 s). */
  outboxPollMs?: number;
  /** Told of every Web API call and whether Slack accepted it (metrics); must not throw. */
  onWebApiCall?: (method: string, ok: boolean) => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface SlackFrontEnd {
  config: SlackConfig;
  app: App<ActorContext>;
  services: SlackServices;
  approvals: SlackApprovals;
  /** `/slack/events` on the shared listener (HTTP mode only). */
  events?: Handler;
  /** `/webhooks/service` on the shared listener. */
  webhooks: Handler;
  /** Messages queued for Slack and not sent yet. */
  outbox: { pending(): Promise<number> };
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Lines for `bankops serve`'s start-up message. */
  banner(baseUrl: string): string[];
}

/** The Web API client's options: our stand-in or Slack, bounded retries, no wait on a 429. */
function webClientOptions(config: SlackConfig, logger: BoltLogger, retries: number) {
  return {
    slackApiUrl: config.apiUrl,
    retryConfig: { retries, factor: 1.5, minTimeout: 200, maxTimeout: 2_000 },
    rejectRateLimitedCalls: true,
    logger,
  };
}

/** HTTP mode: `/slack/events` on the shared listener. Socket Mode: a connection out to Slack. */
function createReceiver(
  options: SlackAppOptions,
  logger: BoltLogger,
  clientOptions: ReturnType<typeof webClientOptions>,
): SharedReceiver | SocketModeReceiver {
  const { config, runtime } = options;
  if (config.mode === 'http') {
    return new SharedReceiver({
      signingSecret: config.signingSecret ?? '',
      log: runtime.log,
      processBeforeResponse: options.processBeforeResponse ?? false,
    });
  }
  return new SocketModeReceiver({
    appToken: config.appToken ?? '',
    logger,
    installerOptions: { clientOptions },
  });
}

/** The lines `bankops serve` prints about Slack. */
function bannerLines(config: SlackConfig, publicUrl: string | undefined, baseUrl: string): string[] {
  const lines =
    config.mode === 'http'
      ? [
          `Slack (HTTP) on ${baseUrl}/slack/events`,
          `  Request URL for slash commands, interactivity and events: ${publicUrl ?? '<BANKOPS_PUBLIC_URL>'}/slack/events`,
        ]
      : [`Slack (Socket Mode): connecting through ${config.apiUrl}apps.connections.open`];
  lines.push(
    config.auditChannel === undefined
      ? '  no audit channel: set BANKOPS_SLACK_AUDIT_CHANNEL for a daily audit anchor'
      : `  audit anchor daily to ${config.auditChannel}`,
    config.approvalsChannel === undefined
      ? '  approvals are posted only where their rule names a slackChannel: set BANKOPS_SLACK_APPROVALS_CHANNEL for the others'
      : `  approvals posted to ${config.approvalsChannel}, unless their rule names a slackChannel`,
    "  reminders of approvals nobody voted on: in their thread, after each rule's reminder (15m by default)",
    config.digest === undefined
      ? '  no morning digest: set BANKOPS_SLACK_DIGEST (e.g. "09:00 Europe/Berlin")'
      : `  morning digest to each approvals channel at ${formatDigestTime(config.digest)}`,
  );
  return lines;
}

/**
 * Every request goes through the same middleware, in order: it is counted while handled (stop waits
 * for it), answered so when the database cannot be reached, an Events API retry is dropped, and the person is resolved into `context.actor`.
 * Then each feature's listeners.
 */
function registerAll(
  app: App<ActorContext>,
  services: SlackServices,
  approvals: SlackApprovals,
  inflight: Inflight,
): void {
  app.error(async (error) => {
    services.log.error('slack: a listener failed', { error });
  });
  app.use(inflight.middleware);
  app.use(answerDatabaseDown(services.log, services.call));
  app.use(handleEventsOnce(services.seen, services.log));
  app.use(resolveActor(services.identities, services.call));
  commands.register(app, services);
  answers.register(app, services);
  forms.register(app, services);
  approvals.register(app);
  passkeys.register(app);
}

/**
 * The Slack front end (DESIGN decision 8): a Bolt app whose listeners turn commands, buttons and
 * forms into `{tool, input, actor}` for the executor and render the results. HTTP mode serves
 * `/slack/events` on the shared listener through `SharedReceiver`; Socket Mode connects out. The app
 * makes no Web API call before its first request (no `auth.test`), so it starts offline.
 */
export function createSlackApp(options: SlackAppOptions): SlackFrontEnd {
  const { config, runtime, stores } = options;
  const { log } = runtime;
  const logger = boltLogger(log, slackSecrets(config));
  const clientOptions = webClientOptions(config, logger, options.webApiRetries ?? 2);
  const receiver = createReceiver(options, logger, clientOptions);
  const app = new App<ActorContext>({
    receiver,
    // No token here: Bolt would call auth.test before the first request. `authorize` hands listeners
    // the bot token without asking Slack anything.
    authorize: async () => ({ botToken: config.botToken }),
    clientOptions,
    logger,
    convoStore: false,
  });
  // Every Web API call of the front end goes through here (listeners and the outbox alike).
  const call = async (method: string, args: Record<string, unknown>): Promise<unknown> => {
    try {
      const answer = await app.client.apiCall(method, { token: config.botToken, ...args });
      options.onWebApiCall?.(method, true);
      return answer;
    } catch (error) {
      options.onWebApiCall?.(method, false);
      throw error;
    }
  };
  const outbox = new SlackOutbox({
    rows: stores.outbox,
    call,
    log,
    ...optional('pollMs', options.outboxPollMs),
  });
  const services = buildSlackServices({
    config,
    stores,
    executor: runtime.executor,
    registry: runtime.registry,
    audit: runtime.audit,
    log,
    payees: runtime.payees,
    outbox,
    call,
    defaults: options.defaults,
    workingAfterMs: options.workingAfterMs ?? 1_000,
    passkeys: runtime.passkeys,
    alerts: runtime.alerts,
    groups: options.groups,
  });
  const approvals = createSlackApprovals(services);
  const inflight = new Inflight();
  registerAll(app, services, approvals, inflight);
  const webhooks = serviceWebhookHandler({
    deliveries: stores.deliveries,
    audit: runtime.audit,
    keys: runtime.webhooks.keys,
    outbox,
    log,
    cards: runtime.executor.cards,
  });
  return {
    config,
    app,
    services,
    approvals,
    ...(receiver instanceof SharedReceiver ? { events: receiver.handle } : {}),
    webhooks,
    outbox,
    start: async () => {
      outbox.start();
      // Today's anchor, if not posted yet (the scheduler posts the next ones: src/slack/jobs.ts).
      if (config.auditChannel !== undefined)
        await queueDailyAnchor(runtime.audit, outbox, config.auditChannel, runtime.scheduler.clock.now());
      await approvals.start();
      scheduleSlackJobs(runtime.scheduler, services);
      if (config.mode === 'socket') {
        // Connecting may take long offline (the client keeps retrying); serving must not wait for it.
        void app.start().catch((error: unknown) => {
          log.error('slack: Socket Mode could not connect', { error });
        });
      }
    },
    stop: async () => {
      const left = await inflight.drain(options.drainMs ?? 10_000);
      if (left > 0) log.warn('slack: stopping with requests still being handled', { count: left });
      await approvals.stop();
      if (config.mode === 'socket') await app.stop().catch(() => undefined);
      await outbox.close();
    },
    banner: (baseUrl) => bannerLines(config, options.publicUrl, baseUrl),
  };
}
