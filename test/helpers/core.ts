import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../src/app/config.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/app/runtime.js';
import { cliActor } from '../../src/core/actors.js';
import type { ApprovalEngine } from '../../src/core/approvals/index.js';
import type { AuditLog } from '../../src/core/audit/index.js';
import type { ServiceClient } from '../../src/core/client/index.js';
import type { Clock } from '../../src/core/clock.js';
import type { Executor } from '../../src/core/executor.js';
import { optional } from '../../src/core/optional.js';
import type { PolicyStore } from '../../src/core/policy/store.js';
import type { Actor } from '../../src/core/policy/types.js';
import type { Registry } from '../../src/core/registry.js';
import type { ExecuteResult } from '../../src/core/results.js';
import type { SqliteBackend } from '../../src/core/store/sqlite/backend.js';
import type { Db } from '../../src/core/store/sqlite/database.js';
import type { AnyTool } from '../../src/core/tool.js';
import { type RunningSandbox, serviceEnv, startTestSandbox } from './sandbox.js';

export interface TestCore {
  sandbox: RunningSandbox;
  client: ServiceClient;
  db: Db;
  dbPath: string;
  audit: AuditLog;
  policy: PolicyStore;
  registry: Registry;
  approvals: ApprovalEngine;
  executor: Executor;
  runtime: Runtime;
  /** `cli:operator`: viewer, operator and approver under the shipped default policy. */
  operator: Actor;
  /** `cli:approver`: a second person, so separation of duties can be shown. */
  approver: Actor;
  /** `cli:approver2`: a third person, for rules that need two approvers. */
  approver2: Actor;
  /** Runs a tool as `actor` (the operator by default) and returns the executor's result. */
  call(tool: string, input?: unknown, actor?: Actor): Promise<ExecuteResult>;
  /** Runs a tool and returns its output, failing the test with the result when it is not `ok`. */
  ok(tool: string, input?: unknown, actor?: Actor): Promise<Record<string, unknown>>;
  /**
   * Asks for a call the policy puts behind one approver (create_beneficiary under the shipped
   * policy), approves it as `approver`, and returns what ran.
   */
  approved(tool: string, input?: unknown, actor?: Actor): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface TestCoreOptions {
  /** Policy YAML; the shipped `policy/default.yaml` when absent. */
  policyYaml?: string;
  /** The approvals' clock (expiry, leases, their timers): `manualClock()` moves it; real time when absent. */
  clock?: Clock;
  /** Approval TTL; one hour when absent. */
  ttlSeconds?: number;
  /** Quote tolerance of the approvals; 0.5 % (the configuration default) when absent. */
  tolerancePercent?: number;
  /** Pauses before re-sending an execution whose outcome is unknown; the engine's default when absent. */
  resendDelaysMs?: readonly number[];
  /** How long a background process keeps re-sending an unknown outcome (`BANKOPS_RESEND_WINDOW`); 0: not at all. */
  resendWindowMs?: number;
  /** Who executes approvals (`host:pid` by default), to play a process on another host. */
  owner?: string;
  /** Tools added to the registry next to every shipped tool. */
  extraTools?: readonly AnyTool[];
  /** Run the long-running work too: expiry at the deadline, following sent money. */
  background?: boolean;
  /** Retries of safe reads by the client; none when absent, so a fault is met once. */
  maxRetries?: number;
  /** A sandbox another core of the same file already runs (it stays open when this core closes). */
  sandbox?: RunningSandbox;
  /** `BANKOPS_PUBLIC_URL`: the passkey pages' origin. */
  publicUrl?: string;
  /** Who hears of calls, audit writes and service attempts (the metrics of `serve`). */
  observe?: Pick<RuntimeOptions, 'observe' | 'onServiceCall'>;
  /** Where the runtime logs (nowhere when absent). */
  log?: RuntimeOptions['log'];
}

/** The configuration of a runtime against a running sandbox, with a database file and policy of its own. */
export function testConfig(
  sandbox: Pick<RunningSandbox, 'url' | 'credentials'>,
  files: { dbPath: string; policyPath?: string },
  options: Pick<TestCoreOptions, 'ttlSeconds' | 'tolerancePercent' | 'publicUrl'> = {},
): Config {
  const c = sandbox.credentials;
  return loadConfig({
    ...serviceEnv(sandbox.url, c),
    BANKOPS_USER_EMAIL: c.userEmail,
    BANKOPS_PROGRAM_CODE: c.programCode,
    BANKOPS_AGENT_CODE: c.agentCode,
    BANKOPS_SUBAGENT_CODE: c.subagentCode,
    BANKOPS_DB: files.dbPath,
    ...(files.policyPath === undefined ? {} : { BANKOPS_POLICY: files.policyPath }),
    BANKOPS_APPROVAL_TTL_SECONDS: String(options.ttlSeconds ?? 3600),
    BANKOPS_QUOTE_TOLERANCE_PERCENT: String(options.tolerancePercent ?? 0.5),
    ...optional('BANKOPS_PUBLIC_URL', options.publicUrl),
  });
}

/** The composition root's options that the approval tests set. */
export function runtimeOptions(options: TestCoreOptions = {}): RuntimeOptions {
  return {
    recover: false,
    client: { maxRetries: options.maxRetries ?? 0 },
    ...optional('clock', options.clock),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
    ...(options.resendDelaysMs === undefined ? {} : { resendDelaysMs: options.resendDelaysMs }),
    ...optional('resendWindowMs', options.resendWindowMs),
    ...(options.extraTools === undefined ? {} : { extraTools: options.extraTools }),
    // In the background, sent money is asked about every 50 ms instead of every second.
    ...(options.background ? { background: true, settlePassMs: 50 } : {}),
    ...options.observe,
    ...optional('log', options.log),
  };
}

/**
 * The real core against a real sandbox on loopback and a real SQLite file in a temp dir:
 * registry of every tool, the shipped default policy, audit log and executor.
 */
export async function createTestCore(options: TestCoreOptions = {}): Promise<TestCore> {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-core-'));
  const sandbox = options.sandbox ?? (await startTestSandbox());
  const dbPath = join(dir, 'bankops.db');
  let policyPath: string | undefined;
  if (options.policyYaml !== undefined) {
    policyPath = join(dir, 'policy.yaml');
    writeFileSync(policyPath, options.policyYaml);
  }
  const config = testConfig(
    sandbox,
    { dbPath, ...(policyPath === undefined ? {} : { policyPath }) },
    options,
  );
  const runtime = await createRuntime(config, runtimeOptions(options));
  const { client, audit, policy, registry, approvals, executor } = runtime;
  const db = sqliteOf(runtime);
  const operator = cliActor('operator');
  const approver = cliActor('approver');
  const approver2 = cliActor('approver2');
  const call = (tool: string, input: unknown = {}, actor: Actor = operator) =>
    executor.execute({ tool, input, actor });
  return {
    sandbox,
    client,
    db,
    dbPath,
    audit,
    policy,
    registry,
    approvals,
    executor,
    runtime,
    operator,
    approver,
    approver2,
    call,
    ok: async (tool, input = {}, actor = operator) => {
      const result = await call(tool, input, actor);
      if (result.status !== 'ok') throw new Error(`${tool} was not ok: ${JSON.stringify(result)}`);
      return result.output;
    },
    approved: async (tool, input = {}, actor = operator) => {
      const asked = await call(tool, input, actor);
      if (asked.status !== 'pending_approval')
        throw new Error(`${tool} did not wait for approval: ${JSON.stringify(asked)}`);
      const voted = await executor.approve(asked.approvalId, approver);
      const done = voted.status === 'ok' ? voted.approval : undefined;
      if (done?.state !== 'succeeded') throw new Error(`${tool} did not succeed: ${JSON.stringify(voted)}`);
      return done.result ?? {};
    },
    close: async () => {
      await runtime.close();
      if (options.sandbox === undefined) await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The SQLite connection of a runtime on SQLite (tests that read its tables). */
export function sqliteOf(runtime: Pick<Runtime, 'backend'>): Db {
  const { backend } = runtime;
  if (!('db' in backend)) throw new Error('the runtime is not on SQLite');
  return (backend as SqliteBackend).db;
}
