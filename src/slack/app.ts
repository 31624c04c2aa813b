import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { App, SocketModeReceiver } from '@slack/bolt';
import type { AuditLog } from '../core/audit/index.js';
import type { Db } from '../core/db.js';
import type { Executor } from '../core/executor.js';
import type { Logger } from '../core/log.js';
import type { PayeeDirectory } from '../core/payees.js';
import type { Registry } from '../core/registry.js';
import type { ToolDefaults } from '../core/tool.js';
import * as actions from './answers/index.js';
import * as events from './approvals/home-tab.js';
import { startDailyAnchor } from './audit-anchor.js';
import * as commands from './commands/index.js';
import type { GrammarContext } from './commands/parse.js';
import { type SlackConfig, slackSecrets } from './config.js';
import * as views from './forms/index.js';
import { SharedReceiver } from './http/receiver.js';
import { SlackIdentities } from './identity.js';
import { boltLogger } from './log.js';
import { toolSchema } from './schemas.js';
import type { ApprovalsFactory } from './seams.js';
import type { SlackServices } from './services.js';
import { AnswerStore } from './store/answers.js';
import { CardDirectory } from './store/cards.js';
import { migrateSlack } from './store/migrations.js';
import { SlackOutbox } from './store/outbox.js';
import { SeenEvents } from './store/seen-events.js';
import { WebhookKeys } from './store/webhook-keys.js';
import { serviceWebhookHandler } from './subscriptions/webhook.js';

export interface SlackAppOptions {
  config: SlackConfig;
  runtime: {
    db: Db;
    executor: Executor;
    registry: Registry;
    audit: AuditLog;
    log: Logger;
    payees?: PayeeDirectory;
  };
  /** The configured company, program and agent codes (subscriptions are made with them). */
  defaults: ToolDefaults;
  /** `BANKOPS_PUBLIC_URL`: where Slack and the service reach `bankops serve` (a proxy or tunnel). */
  publicUrl?: string;
  /** The approval messages, their buttons and the Home tab's approvals, plugged in here. */
  approvals?: ApprovalsFactory;
  /** How long user-group members are trusted, and how often a miss may refresh them (tests). */
  groups?: { ttlMs?: number; missRefreshMs?: number };
  /** On stop, how long requests being handled may take to finish (default 10 s). */
  drainMs?: number;
  /** Answer Slack only after the listener finished: tests only (production acknowledges at once). */
  processBeforeResponse?: boolean;
  /** After how long a "working…" note is shown (default 1 s). */
  workingAfterMs?: number;
  /** Retries of a Web API call inside one attempt (default 2; the outbox retries later anyway). */
  webApiRetries?: number;
  /** How often the outbox looks for work queued by other processes (default 1 s). */
  outboxPollMs?: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface SlackFrontEnd {
  config: SlackConfig;
  app: App;
  services: SlackServices;
  /** `/slack/events` on the shared listener (HTTP mode only). */
  events?: Handler;
  /** `/webhooks/service` on the shared listener. */
  webhooks: Handler;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Lines for `bankops serve`'s start-up message. */
  banner(baseUrl: string): string[];
}

function grammarFor(registry: Registry): GrammarContext {
  return {
    toolNames: registry.names(),
    isSecretInput: (name) => registry.get(name)?.secretInput === true,
    schemaOf: (name) => {
      const tool = registry.get(name);
      return tool === undefined ? undefined : toolSchema(tool);
    },
  };
}

/**
 * The Slack front end (DESIGN decision 8): a Bolt app whose listeners turn commands, buttons and
 * forms into `{tool, input, actor}` for the executor and render the results. HTTP mode serves
 * `/slack/events` on the shared listener through `SharedReceiver`; Socket Mode connects out. The app
 * makes no Web API call before its first request (no `auth.test`), so it starts offline.
 */
export function createSlackApp(options: SlackAppOptions): SlackFrontEnd {
  const { config, runtime } = options;
  const { db, log } = runtime;
  migrateSlack(db);
  const logger = boltLogger(log, slackSecrets(config));
  const clientOptions = {
    slackApiUrl: config.apiUrl,
    retryConfig: { retries: options.webApiRetries ?? 2, factor: 1.5, minTimeout: 200, maxTimeout: 2_000 },
    rejectRateLimitedCalls: true,
    logger,
  };
  const receiver =
    config.mode === 'http'
      ? new SharedReceiver({
          signingSecret: config.signingSecret ?? '',
          log,
          ...(options.processBeforeResponse === undefined
            ? {}
            : { processBeforeResponse: options.processBeforeResponse }),
        })
      : new SocketModeReceiver({
          appToken: config.appToken ?? '',
          logger,
          installerOptions: { clientOptions },
        });
  const app = new App({
    receiver,
    // No token here: Bolt would call auth.test before the first request. `authorize` hands listeners
    // the bot token without asking Slack anything.
    authorize: async () => ({ botToken: config.botToken }),
    clientOptions,
    logger,
    convoStore: false,
  });
  const call = async (method: string, args: Record<string, unknown>): Promise<unknown> =>
    app.client.apiCall(method, { token: config.botToken, ...args });
  const outbox = new SlackOutbox({
    db,
    call,
    log,
    ...(options.outboxPollMs === undefined ? {} : { pollMs: options.outboxPollMs }),
  });
  const services: SlackServices = {
    config,
    db,
    executor: runtime.executor,
    registry: runtime.registry,
    audit: runtime.audit,
    log,
    identities: new SlackIdentities({
      ...options.groups,
      policy: () => runtime.executor.policy,
      groupMembers: async (usergroup) => {
        const answer = (await call('usergroups.users.list', { usergroup })) as { users?: string[] };
        return answer.users ?? [];
      },
      log,
    }),
    answers: new AnswerStore(db),
    cards: new CardDirectory(db),
    seen: new SeenEvents(db),
    webhookKeys: new WebhookKeys(db),
    outbox,
    call,
    approvals: undefined,
    payees: runtime.payees,
    publicUrl: options.publicUrl,
    defaults: options.defaults,
    workingAfterMs: options.workingAfterMs ?? 1_000,
  };

  const approvals = options.approvals?.(services);
  services.approvals = approvals;
  app.error(async (error) => {
    log.error('slack: a listener failed', { error: error.message, code: error.code });
  });
  // Requests still being handled (the answer follows the acknowledgement) finish before stop.
  const inflight = new Set<Promise<void>>();
  app.use(async ({ next }) => {
    const handling = next();
    inflight.add(handling);
    try {
      await handling;
    } finally {
      inflight.delete(handling);
    }
  });
  app.use(events.onceMiddleware(services));
  commands.register(app, services, grammarFor(runtime.registry));
  actions.register(app, services);
  views.register(app, services);
  events.register(app, services);
  approvals?.register(app);

  const webhooks = serviceWebhookHandler({
    db,
    audit: runtime.audit,
    keys: services.webhookKeys,
    outbox,
    log,
  });
  let anchor: { stop(): void } | undefined;
  return {
    config,
    app,
    services,
    ...(receiver instanceof SharedReceiver ? { events: receiver.handle } : {}),
    webhooks,
    start: async () => {
      outbox.start();
      if (config.auditChannel !== undefined)
        anchor = startDailyAnchor(runtime.audit, outbox, config.auditChannel);
      await approvals?.start?.();
      if (config.mode === 'socket') {
        // Connecting may take long offline (the client keeps retrying); serving must not wait for it.
        void app.start().catch((error: unknown) => {
          log.error('slack: Socket Mode could not connect', {
            error: error instanceof Error ? error.message : String(error),
          });
        });
      }
    },
    stop: async () => {
      anchor?.stop();
      const deadline = Date.now() + (options.drainMs ?? 10_000);
      while (inflight.size > 0 && Date.now() < deadline) {
        await Promise.race([Promise.allSettled([...inflight]), delay(Math.max(0, deadline - Date.now()))]);
      }
      if (inflight.size > 0)
        log.warn('slack: stopping with requests still being handled', { count: inflight.size });
      await approvals?.stop?.();
      if (config.mode === 'socket') await app.stop().catch(() => undefined);
      await outbox.close();
    },
    banner: (baseUrl) => {
      const lines =
        config.mode === 'http'
          ? [
              `Slack (HTTP) on ${baseUrl}/slack/events`,
              `  Request URL for slash commands, interactivity and events: ${options.publicUrl ?? '<BANKOPS_PUBLIC_URL>'}/slack/events`,
            ]
          : [`Slack (Socket Mode): connecting through ${config.apiUrl}apps.connections.open`];
      lines.push(
        config.auditChannel === undefined
          ? '  no audit channel: set BANKOPS_SLACK_AUDIT_CHANNEL for a daily audit anchor'
          : `  audit anchor daily to ${config.auditChannel}`,
        config.approvalsChannel === undefined
          ? '  approvals are posted only where their rule names a slackChannel: set BANKOPS_SLACK_APPROVALS_CHANNEL for the others'
          : `  approvals posted to ${config.approvalsChannel}, unless their rule names a slackChannel`,
      );
      return lines;
    },
  };
}
