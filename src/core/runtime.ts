import { type RunningSandbox, startSandbox } from '../sandbox/server.js';
import { createRegistry } from '../tools/index.js';
import { ApprovalEngine } from './approvals/index.js';
import { AuditLog } from './audit/index.js';
import { createServiceClient, type ServiceClient } from './client/index.js';
import type { Config } from './config.js';
import { type Db, openDatabase } from './db.js';
import { Executor } from './executor.js';
import { type Logger, silentLogger } from './log.js';
import { PolicyStore, unknownToolNames, unlistedMcpKeys } from './policy/index.js';
import type { Registry } from './registry.js';
import { sqliteSandboxStore } from './sandbox-store.js';
import type { ToolDefaults } from './tool.js';

/** Everything a front end needs, built once from the configuration. */
export interface Runtime {
  config: Config;
  db: Db;
  audit: AuditLog;
  policy: PolicyStore;
  registry: Registry;
  client: ServiceClient;
  executor: Executor;
  /** The embedded sandbox, when no service URL is configured. */
  sandbox?: RunningSandbox;
  log: Logger;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  log?: Logger;
  /** Watch the policy file and reload it on change and on SIGHUP (long-running servers). */
  watchPolicy?: boolean;
  /** Finish approvals a dead process left executing (on by default). */
  recover?: boolean;
}

/** `bankops.db` → `bankops.sandbox.db`, beside it. */
export const sandboxDatabasePath = (databasePath: string): string =>
  databasePath.endsWith('.db') ? `${databasePath.slice(0, -3)}.sandbox.db` : `${databasePath}.sandbox`;

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? silentLogger;
  const db = openDatabase(config.databasePath);
  const audit = new AuditLog(db, { secrets: [config.service.apiKey] });
  const policy = PolicyStore.load(config.policyPath);
  const registry = createRegistry();
  // Names that point nowhere are not errors (they match nothing), but usually a slip: said each load.
  const warnDangling = (): void => {
    const unknown = unknownToolNames(policy.current(), registry.names());
    if (unknown.length > 0) log.warn('the policy names tools that do not exist', { tools: unknown });
    const unlisted = unlistedMcpKeys(policy.current());
    if (unlisted.length > 0)
      log.warn('the policy gives roles to MCP keys it does not list', { keys: unlisted });
  };
  warnDangling();
  if (options.watchPolicy) {
    policy.watch(({ trigger, result }) => {
      if (result.ok) {
        log.info('policy reloaded', { trigger, path: policy.path });
        warnDangling();
      } else
        log.error('policy reload failed; keeping the previous policy', {
          trigger,
          error: result.error.message,
        });
    });
  }

  let sandbox: RunningSandbox | undefined;
  let sandboxDb: Db | undefined;
  let baseUrl = config.service.baseUrl;
  if (config.mode === 'embedded') {
    // The sandbox stands in for the service, and keeps what a service keeps (card numbers, PINs,
    // webhook keys): in its own file, never in the database of the audit log and approvals.
    sandboxDb = openDatabase(sandboxDatabasePath(config.databasePath), { synchronous: 'NORMAL' });
    sandbox = await startSandbox(0, {
      credentials: {
        apiKey: config.service.apiKey,
        productId: config.service.productId,
        userId: config.service.userId,
        companyId: config.service.companyId,
        userEmail: config.userEmail,
        programCode: config.defaults.programCode,
        agentCode: config.defaults.agentCode,
        subagentCode: config.defaults.subagentCode,
      },
      persistence: sqliteSandboxStore(sandboxDb),
    });
    baseUrl = sandbox.url;
  }
  if (baseUrl === undefined) throw new Error('no service URL and no embedded sandbox');

  const client = createServiceClient({
    baseUrl,
    apiKey: config.service.apiKey,
    productId: config.service.productId,
    userId: config.service.userId,
    companyId: config.service.companyId,
    ...(config.service.clientId === undefined ? {} : { clientId: config.service.clientId }),
    timeoutMs: config.service.timeoutMs,
    onResponse: (event) => log.debug('service call', { ...event }),
  });
  const defaults: ToolDefaults = config.defaults;
  const approvals = new ApprovalEngine({
    db,
    audit,
    policy,
    registry,
    client,
    defaults,
    ttlSeconds: config.approvalTtlSeconds,
    tolerancePercent: config.quoteTolerancePercent,
  });
  const executor = new Executor({ db, registry, policy, audit, client, defaults, approvals, log });
  if (options.recover !== false) {
    // A recovery that fails must not keep every command from starting: it is retried next start.
    try {
      const recovered = await executor.recover();
      if (recovered > 0)
        log.info('finished approvals left executing by a stopped process', { count: recovered });
    } catch (error) {
      log.error('recovering approvals failed; will retry at the next start', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  return {
    config,
    db,
    audit,
    policy,
    registry,
    client,
    executor,
    ...(sandbox === undefined ? {} : { sandbox }),
    log,
    close: async () => {
      policy.close();
      await client.close();
      await sandbox?.close();
      sandboxDb?.close();
      db.close();
    },
  };
}
