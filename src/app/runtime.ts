import { AlertBook, type BalanceAlerts, checkAlerts } from '../core/alerts/index.js';
import { ApprovalEngine } from '../core/approvals/index.js';
import { AuditLog } from '../core/audit/index.js';
import { ThreadWriter } from '../core/audit/thread-writer.js';
import { inlineWriter } from '../core/audit/writer.js';
import {
  type ClientConfig,
  createServiceClient,
  type ResponseEvent,
  type ServiceClient,
} from '../core/client/index.js';
import { type Clock, systemClock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { internalError } from '../core/errors.js';
import { Executor } from '../core/executor.js';
import { type Logger, silentLogger } from '../core/log.js';
import { isLoopback } from '../core/loopback.js';
import type { ToolCallObserver } from '../core/observe.js';
import { optional } from '../core/optional.js';
import { PasskeyService } from '../core/passkeys/index.js';
import type { PayeeDirectory } from '../core/payees.js';
import { storedPolicyChanges } from '../core/policy/changes.js';
import { PolicyStore, unknownToolNames, unlistedMcpKeys, weakerForLarger } from '../core/policy/index.js';
import { usable } from '../core/policy/store.js';
import type { Registry } from '../core/registry.js';
import { PRUNE_CLAIMS_JOB, pruneClaimsJob } from '../core/schedule/prune.js';
import { Scheduler } from '../core/schedule/scheduler.js';
import type { Backend } from '../core/store/backend.js';
import type { Storage } from '../core/store/index.js';
import type { AnyTool, ToolDefaults } from '../core/tool.js';
import { ServiceWebhooks } from '../core/webhooks.js';
import { ALL_TOOLS, createRegistry } from '../tools/index.js';
import { backgroundErrorReporter } from './background-errors.js';
import { openStores, storeWords } from './database.js';
import { nameSharedSandboxPayees, rememberSandboxPayees } from './sandbox-payees.js';
import {
  endpointOf,
  type LazySandbox,
  lazySandbox,
  requireSandboxAt,
  sandboxInfo,
} from './shared-sandbox.js';

/** Everything a front end needs, built once from the configuration. */
export interface Runtime {
  config: Config;
  /** The database everything durable is in (SQLite, or PostgreSQL with `BANKOPS_DATABASE_URL`). */
  backend: Backend;
  /** The core's durable stores (approvals, feed, executions, audit chain) on it. */
  storage: Storage;
  audit: AuditLog;
  policy: PolicyStore;
  registry: Registry;
  client: ServiceClient;
  approvals: ApprovalEngine;
  executor: Executor;
  payees: PayeeDirectory;
  /** People's passkeys: enrolment and approval links, signed votes (step-up). */
  passkeys: PasskeyService;
  /**
   * Periodic work (reminders, digests, balance alerts), each slot done by one replica. Jobs are
   * added by the front ends of a long-running process; a short CLI command adds none.
   */
  scheduler: Scheduler;
  /**
   * The balance alerts' check (`system:alerts` reading the balances through the executor), which
   * the Slack front end's job runs; the alerts are added, listed and removed by their tools.
   */
  alerts: BalanceAlerts;
  /** Where the service delivers events (`bankops serve` says where it listens) and the keys it was given. */
  webhooks: ServiceWebhooks;
  /**
   * The service is a bankops sandbox (embedded, or one on loopback that says it is one): people may
   * act under any name here, to try separation of duties alone. Against a real service they may not.
   */
  againstSandbox: boolean;
  /**
   * Where that sandbox answers (its `/_sandbox/…` controls: the clock), when `againstSandbox` and
   * known at start: a configured URL, or the embedded sandbox a long-running process started.
   */
  sandboxUrl?: string;
  /**
   * The embedded sandbox, when no service URL is configured: found or started at the first call
   * to the service, or at once in a long-running process (`background`). `current()?.own` is the
   * one this process serves.
   */
  embedded?: LazySandbox;
  log: Logger;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  log?: Logger;
  /** Watch the policy file and reload it on change and on SIGHUP (long-running servers). */
  watchPolicy?: boolean;
  /** Finish approvals a dead process left executing (on by default). */
  recover?: boolean;
  /**
   * A long-running process (serve, the stdio MCP server): expire approvals at their deadline and
   * follow sent money to its final status, without anyone asking; and register the embedded
   * sandbox it starts, so other processes use that one (src/app/shared-sandbox.ts).
   */
  background?: boolean;
  /**
   * A one-shot command (the CLI's): an embedded sandbox this process starts answers in it, without
   * a listener (nobody else connects to it; its state file carries what it did to the next
   * command). Not with `background`, whose sandbox serves the others.
   */
  inProcessSandbox?: boolean;
  /** The approvals' and passkeys' clock (expiry, leases, follow-ups); real time by default. Tests move it. */
  clock?: Clock;
  /** Who executes approvals (`host:pid` by default); tests play a process on another host. */
  owner?: string;
  /** Pauses before re-sending an execution whose outcome is unknown; the engine's default otherwise. */
  resendDelaysMs?: readonly number[];
  /**
   * How long a long-running process re-sends an unknown outcome in the background (`background`
   * only); `BANKOPS_RESEND_WINDOW` otherwise.
   */
  resendWindowMs?: number;
  /** How often sent money's status is asked for (1 s by default; tests ask more often). */
  settlePassMs?: number;
  /** Tools added next to the shipped ones (tests). */
  extraTools?: readonly AnyTool[];
  /**
   * Secret values besides the service's API key that must never reach the audit log, wherever they
   * turn up (the Slack tokens and signing secret of `serve`).
   */
  secrets?: readonly string[];
  /** Told of every attempt at the service (the CLI shows slow calls and re-sends on stderr). */
  onServiceCall?: (event: ResponseEvent) => void;
  /** Told of every call through the executor and every audit write and check (the metrics of `serve`). */
  observe?: RuntimeObserver;
  /** Audit entries that may wait for the database at most (10,000 by default; tests set a few). */
  auditMaxWaiting?: number;
  /**
   * Commit the audit log's batches in a thread of its own, off the thread that answers requests
   * (`background` processes do by default; a short command has too few entries to gain from it).
   */
  auditThread?: boolean;
  /** Client settings the environment does not carry (tests turn retries off). */
  client?: Partial<Pick<ClientConfig, 'maxRetries' | 'now'>>;
}

export interface RuntimeObserver {
  toolCall: ToolCallObserver;
  auditWritten(count: number): void;
  auditVerified(at: Date): void;
  /** This process took over an execution whose holder's lease ran out. */
  executionTakenOver(): void;
}

export { sandboxDatabasePath } from './shared-sandbox.js';

/** The audit log's writer thread, on the same database; none for a database only this connection sees. */
function auditWriterOf(backend: Backend, wanted: boolean, log: Logger): ThreadWriter | undefined {
  const target = wanted ? backend.threadTarget('bankops-audit') : undefined;
  if (target === undefined) return undefined;
  // A thread that does not start in time leaves the work to this one, as a short command does.
  return new ThreadWriter(target, { log, fallback: inlineWriter(backend.storage) });
}

/** The names in the policy that point nowhere: not errors (they match nothing), but usually a slip. */
function warnDangling(policy: PolicyStore, registry: Registry, log: Logger): void {
  const unknown = unknownToolNames(policy.current(), registry.names());
  if (unknown.length > 0) log.warn('the policy names tools that do not exist', { tools: unknown });
  const unlisted = unlistedMcpKeys(policy.current());
  if (unlisted.length > 0)
    log.warn('the policy gives roles to MCP keys it does not list', { keys: unlisted });
  for (const problem of weakerForLarger(policy.current()))
    log.warn('the policy asks less for larger amounts', { problem });
}

/** How often a long-running process looks for a newer governed version of the policy. */
const POLICY_FOLLOW_MS = 5_000;

function watchPolicy(policy: PolicyStore, registry: Registry, log: Logger): void {
  policy.watch(({ trigger, result }) => {
    if (result.ok) {
      log.info('policy reloaded', { trigger, path: policy.path });
      warnDangling(policy, registry, log);
    } else
      log.error('policy reload failed; keeping the previous policy', {
        trigger,
        error: result.error.message,
      });
  });
}

async function recoverApprovals(executor: Executor, log: Logger): Promise<void> {
  // A recovery that fails must not keep every command from starting: it is retried next start.
  try {
    const recovered = await executor.recover();
    if (recovered > 0)
      log.info('finished approvals left executing by a stopped process', { count: recovered });
  } catch (error) {
    log.error('recovering approvals failed; will retry at the next start', {
      error,
    });
  }
}

/**
 * The composition root (DESIGN "Layout"): configuration → database → client or embedded sandbox →
 * registry → executor. Every entry point and every test builds its runtime here.
 */
export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? silentLogger;
  const database = await openStores(config, log);
  const { backend } = database;
  const { storage } = backend;
  const { observe } = options;
  const policy = PolicyStore.load(config.policyPath, {
    publicUrl: config.publicUrl,
    onNotice: (message) => log.warn(message),
    onAdopted: (stamp) => log.info('policy version in force', { ...stamp }),
  });
  const audit = new AuditLog(storage, {
    policyStamp: () => policy.stamp(),
    secrets: [config.service.apiKey, ...(options.secrets ?? [])],
    log,
    ...optional('maxWaiting', options.auditMaxWaiting),
    ...optional('writer', auditWriterOf(backend, options.auditThread ?? options.background === true, log)),
    ...optional('onWritten', observe && ((count: number) => observe.auditWritten(count))),
    ...optional('onVerified', observe && ((at: Date) => observe.auditVerified(at))),
  });
  const { clock } = options;
  await policy.attach(storage, clock === undefined ? undefined : () => clock.now());
  const registry = createRegistry([...ALL_TOOLS, ...(options.extraTools ?? [])]);
  warnDangling(policy, registry, log);
  if (options.watchPolicy) watchPolicy(policy, registry, log);
  // Under governance a change another process put in force is picked up here (docs/policy.md).
  if (options.watchPolicy || options.background)
    policy.follow(
      POLICY_FOLLOW_MS,
      (error) => log.error('reading the policy version in force failed', { error }),
      backend.policyWakeups,
    );

  const { payees } = backend.directories;
  // The embedded sandbox starts at the first call to the service, or at once in a long-running
  // process, which serves it to the others. The payees it was seeded with are in the directory
  // from the first command on, so `payees verify` and `payees name` find them before any call.
  const embedded =
    config.mode === 'embedded'
      ? lazySandbox(config, {
          share: options.background === true,
          inProcess: options.inProcessSandbox === true,
        })
      : undefined;
  if (embedded !== undefined) await rememberSandboxPayees(payees);
  if (options.background) await embedded?.start();
  const configured = config.service.baseUrl;
  const baseUrl = embedded === undefined ? configured : async () => endpointOf(await embedded.start());
  if (baseUrl === undefined) throw internalError('no service URL and no embedded sandbox');
  if (configured !== undefined && config.sandboxCredentials) await requireSandboxAt(configured);
  const againstSandbox =
    embedded !== undefined ||
    config.sandboxCredentials === true ||
    (configured !== undefined && isLoopback(configured) && (await sandboxInfo(configured)) !== undefined);
  const sandboxUrl = againstSandbox ? (configured ?? embedded?.current()?.url) : undefined;
  // One `bankops sandbox` shared by replicas (docs/deploy.md): its seeded payees are named in this
  // database as the embedded sandbox's are, by the first process that sees it.
  if (embedded === undefined && againstSandbox) await nameSharedSandboxPayees(payees, log);

  const client = createServiceClient({
    baseUrl,
    apiKey: config.service.apiKey,
    productId: config.service.productId,
    userId: config.service.userId,
    companyId: config.service.companyId,
    ...optional('clientId', config.service.clientId),
    timeoutMs: config.service.timeoutMs,
    onResponse: (event) => {
      log.debug('service call', { ...event });
      options.onServiceCall?.(event);
    },
    ...options.client,
  });
  const defaults: ToolDefaults = config.defaults;
  const webhooks = new ServiceWebhooks(backend.directories.webhookKeys);
  const passkeys = new PasskeyService({
    storage,
    audit,
    publicUrl: config.publicUrl,
    store: storeWords(config),
    ...optional('now', clock && (() => clock.now())),
  });
  const book = new AlertBook(storage, clock ?? systemClock, config.alertIntervalMs);
  const approvals = new ApprovalEngine({
    stepUp: passkeys.gate,
    storage,
    audit,
    policy,
    registry,
    client,
    defaults,
    ttlSeconds: config.approvalTtlSeconds,
    tolerancePercent: config.quoteTolerancePercent,
    payees,
    webhooks,
    alerts: book,
    policyChanges: storedPolicyChanges(
      storage,
      (text, source) => usable(text, source, config.publicUrl),
      () => (clock ?? systemClock).now(),
    ),
    log,
    ...optional('clock', clock),
    ...optional('owner', options.owner),
    ...optional('resendDelaysMs', options.resendDelaysMs ?? config.resendDelaysMs),
    ...optional('settlePassMs', options.settlePassMs),
    // Only a process that stays up re-sends in the background; a short command would exit first.
    ...(options.background ? { resendWindowMs: options.resendWindowMs ?? config.resendWindowMs } : {}),
    ...optional('leaseSeconds', config.executionLeaseSeconds),
    ...optional('feedSharing', backend.feedSharing),
    ...optional('onTakenOver', observe && (() => observe.executionTakenOver())),
  });
  const executor = new Executor({
    cards: backend.directories.cards,
    storage,
    registry,
    policy,
    audit,
    client,
    defaults,
    approvals,
    payees,
    webhooks,
    alerts: book,
    fingerprintKey: database.fingerprintKey,
    store: storeWords(config),
    log,
    ...optional('observer', observe?.toolCall),
    ...optional('clock', clock),
  });
  passkeys.attach(executor);
  const scheduler = new Scheduler({
    storage,
    clock: clock ?? systemClock,
    owner: approvals.owner,
    log,
  });
  const alertCheck = { storage, execute: executor.execute.bind(executor), clock: clock ?? systemClock, log };
  const alerts: BalanceAlerts = {
    intervalMs: book.intervalMs,
    check: (post) => checkAlerts(alertCheck, post),
  };
  await executor.forgetUnkeyedFingerprints();
  if (options.recover !== false) await recoverApprovals(executor, log);
  if (options.background) {
    // The claims of scheduled work are pruned wherever jobs run (serve, the stdio MCP server).
    if (!scheduler.has(PRUNE_CLAIMS_JOB)) scheduler.every(pruneClaimsJob(storage, log));
    const background = backgroundErrorReporter(log);
    approvals.startBackground(scheduler, background.failed, background.answered);
  }

  return {
    config,
    backend,
    storage,
    audit,
    policy,
    registry,
    client,
    approvals,
    executor,
    payees,
    passkeys,
    scheduler,
    alerts,
    webhooks,
    againstSandbox,
    ...optional('sandboxUrl', sandboxUrl),
    ...optional('embedded', embedded),
    log,
    close: async () => {
      await scheduler.stop();
      await approvals.stopBackground();
      policy.close();
      await client.close();
      await embedded?.close();
      await audit.close();
      await backend.close();
    },
  };
}
