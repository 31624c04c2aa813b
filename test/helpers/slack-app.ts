import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { type RunningServe, type ServeOptions, startServe } from '../../src/app/serve.js';
import type { SlackConfig } from '../../src/slack/config.js';
import { runtimeOptions, type TestCoreOptions, testConfig } from './core.js';
import { type RunningSandbox, startTestSandbox } from './sandbox.js';
import { SlackApiStandIn } from './slack-api.js';
import { SlackDriver } from './slack-requests.js';

export const BOT_TOKEN = 'xoxb-test-0000-bankops';
export const SIGNING_SECRET = 'test-signing-secret-0123456789';

/** The people of the Slack tests, as the policy knows them. */
export const USERS = {
  /** viewer and operator: reads, and writes the policy allows operators. */
  operator: 'U0OPERATOR',
  /** viewer only. */
  viewer: 'U0VIEWER',
  /** In the treasury user group (approver, viewer) and nothing else. */
  treasurer: 'U0TREASURER',
  /** Not in the policy at all. */
  stranger: 'U0STRANGER',
  /** Dana: viewer, operator and approver, the same person as the CLI user `dana`. */
  dana: 'U0DANA',
} as const;
export const TREASURY_GROUP = 'S0TREASURY';
export const AUDIT_CHANNEL = 'C0AUDIT';

/** The shipped default policy with the Slack test people added to its actors. */
export function slackPolicyYaml(): string {
  const policy = parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8'),
  ) as {
    actors: unknown[];
  };
  policy.actors.push(
    { match: { slackUser: USERS.operator }, roles: ['viewer', 'operator'] },
    { match: { slackUser: USERS.viewer }, roles: ['viewer'] },
    { match: { slackGroup: TREASURY_GROUP }, roles: ['approver', 'viewer'] },
    { match: { slackUser: USERS.dana }, roles: ['viewer', 'operator', 'approver'], person: 'dana' },
    { match: { cli: 'dana' }, roles: ['viewer', 'operator', 'approver'], person: 'dana' },
  );
  return stringify(policy);
}

export interface SlackTest {
  serve: RunningServe;
  runtime: Runtime;
  sandbox: RunningSandbox;
  api: SlackApiStandIn;
  slack: SlackDriver;
  dir: string;
  /**
   * Stops serve and its runtime and starts both again on the same database, as a restarted process;
   * `whileDown` runs in between (another process acting meanwhile).
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export interface SlackTestOptions {
  /** Answer only after the listener finished (production, and the default, acknowledge at once). */
  processBeforeResponse?: boolean;
  config?: Partial<SlackConfig>;
  publicUrl?: string;
  /** Overrides of the Slack app's options (approvals seam, timings). */
  slack?: ServeOptions['slack'];
  policyYaml?: string;
  /** The core's options: the approvals' clock and time to live, background expiry and settlement. */
  core?: Pick<
    TestCoreOptions,
    | 'clock'
    | 'ttlSeconds'
    | 'tolerancePercent'
    | 'background'
    | 'publicUrl'
    | 'resendDelaysMs'
    | 'resendWindowMs'
  >;
  /** The listener's port (0: any free one); fixed when the public URL must name it (passkeys). */
  port?: number;
  /** What the stand-in's `apps.connections.open` answers (Socket Mode). */
  socketUrl?: () => string;
  /** MCP's options on the shared listener (an OAuth resource server, for one). */
  mcp?: ServeOptions['mcp'];
  /** PostgreSQL instead of the SQLite file: its URL and the fingerprint key file replicas share. */
  database?: { url: string; fingerprintKeyFile: string };
}

/**
 * One Slack app for a test file, as `bankops serve` runs it: a sandbox of the service, the real
 * runtime on a temp database, the shared listener with Slack in HTTP mode against the Web API
 * stand-in, and a driver that sends signed requests to `/slack/events`.
 */
export async function startSlackTest(options: SlackTestOptions = {}): Promise<SlackTest> {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-slack-'));
  const sandbox = await startTestSandbox();
  const policyPath = join(dir, 'policy.yaml');
  writeFileSync(policyPath, options.policyYaml ?? slackPolicyYaml());
  const api = await SlackApiStandIn.start({
    token: BOT_TOKEN,
    groups: { [TREASURY_GROUP]: [USERS.treasurer] },
    ...(options.socketUrl === undefined ? {} : { socketUrl: options.socketUrl }),
  });
  const config: SlackConfig = {
    mode: 'http',
    botToken: BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    apiUrl: api.url,
    auditChannel: AUDIT_CHANNEL,
    ...options.config,
  };
  const boot = async () => {
    const runtime = await createRuntime(
      {
        ...testConfig(sandbox, { dbPath: join(dir, 'bankops.db'), policyPath }, options.core),
        ...(options.database === undefined
          ? {}
          : { databaseUrl: options.database.url, fingerprintKeyFile: options.database.fingerprintKeyFile }),
      },
      runtimeOptions(options.core),
    );
    const serve = await startServe({
      runtime,
      host: '127.0.0.1',
      port: options.port ?? 0,
      ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
      settings: {
        slack: { enabled: true, config },
        ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
      },
      slack: {
        ...(options.processBeforeResponse === undefined
          ? {}
          : { processBeforeResponse: options.processBeforeResponse }),
        webApiRetries: 0,
        outboxPollMs: 50,
        ...options.slack,
      },
    });
    const slack = new SlackDriver({
      eventsUrl: `${serve.url}/slack/events`,
      signingSecret: SIGNING_SECRET,
      api,
    });
    return { runtime, serve, slack };
  };
  const t: SlackTest = {
    ...(await boot()),
    sandbox,
    api,
    dir,
    restart: async (whileDown) => {
      await t.serve.close();
      await t.runtime.close();
      await whileDown?.();
      Object.assign(t, await boot());
    },
    close: async () => {
      await t.serve.close();
      await t.runtime.close();
      await sandbox.close();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}
