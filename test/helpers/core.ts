import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliActor } from '../../src/core/actors.js';
import { ApprovalEngine } from '../../src/core/approvals/index.js';
import { AuditLog } from '../../src/core/audit/index.js';
import type { ServiceClient } from '../../src/core/client/index.js';
import { type Db, openDatabase } from '../../src/core/db.js';
import { Executor } from '../../src/core/executor.js';
import { PolicyStore } from '../../src/core/policy/store.js';
import type { Actor } from '../../src/core/policy/types.js';
import type { Registry } from '../../src/core/registry.js';
import type { ExecuteResult } from '../../src/core/results.js';
import type { AnyTool, ToolDefaults } from '../../src/core/tool.js';
import { ALL_TOOLS, createRegistry } from '../../src/tools/index.js';
import { clientFor, type RunningSandbox, startTestSandbox } from './sandbox.js';

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
  close(): Promise<void>;
}

export interface TestCoreOptions {
  /** Policy YAML; the shipped `policy/default.yaml` when absent. */
  policyYaml?: string;
  /** The approvals' clock (expiry, leases); real time when absent. */
  now?: () => Date;
  /** Approval TTL; one hour when absent. */
  ttlSeconds?: number;
  /** Quote tolerance of the approvals; 0.5 % (the configuration default) when absent. */
  tolerancePercent?: number;
  /** Pauses before re-sending an execution whose outcome is unknown; the engine's default when absent. */
  resendDelaysMs?: readonly number[];
  /** Who executes approvals (`host:pid` by default), to play a process on another host. */
  owner?: string;
  /** Tools added to the registry next to every shipped tool. */
  extraTools?: readonly AnyTool[];
}

export interface CoreParts {
  db: Db;
  client: ServiceClient;
  policy: PolicyStore;
  defaults: ToolDefaults;
  options?: TestCoreOptions;
}

/**
 * Audit log, registry, approvals engine and executor over an open database and a client: the
 * wiring `createTestCore` and the child processes of the approval tests share.
 */
export function assembleCore({ db, client, policy, defaults, options = {} }: CoreParts) {
  const audit = new AuditLog(db);
  const registry = createRegistry([...ALL_TOOLS, ...(options.extraTools ?? [])]);
  const approvals = new ApprovalEngine({
    db,
    audit,
    policy,
    registry,
    client,
    defaults,
    ttlSeconds: options.ttlSeconds ?? 3600,
    tolerancePercent: options.tolerancePercent ?? 0.5,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
    ...(options.resendDelaysMs === undefined ? {} : { resendDelaysMs: options.resendDelaysMs }),
  });
  const executor = new Executor({ db, registry, policy, audit, client, defaults, approvals });
  return { audit, registry, approvals, executor };
}

/**
 * The real core against a real sandbox on loopback and a real SQLite file in a temp dir:
 * registry of every tool, the shipped default policy, audit log and executor.
 */
export async function createTestCore(options: TestCoreOptions = {}): Promise<TestCore> {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-core-'));
  const sandbox = await startTestSandbox();
  const client = clientFor(sandbox);
  const dbPath = join(dir, 'bankops.db');
  const db = openDatabase(dbPath);
  let policyPath: string | undefined;
  if (options.policyYaml !== undefined) {
    policyPath = join(dir, 'policy.yaml');
    writeFileSync(policyPath, options.policyYaml);
  }
  const policy = PolicyStore.load(policyPath);
  const c = sandbox.credentials;
  const defaults = {
    companyCode: c.companyId,
    programCode: c.programCode,
    agentCode: c.agentCode,
    subagentCode: c.subagentCode,
  };
  const { audit, registry, approvals, executor } = assembleCore({ db, client, policy, defaults, options });
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
    operator,
    approver,
    approver2,
    call,
    ok: async (tool, input = {}, actor = operator) => {
      const result = await call(tool, input, actor);
      if (result.status !== 'ok') throw new Error(`${tool} was not ok: ${JSON.stringify(result)}`);
      return result.output;
    },
    close: async () => {
      policy.close();
      db.close();
      await client.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
