import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type RunningSandbox,
  SANDBOX_DEFAULTS,
  type SandboxOptions,
  startSandbox,
} from '../../src/sandbox/index.js';
import { CLI } from '../helpers/cli.js';
import { writeFingerprintKey } from '../helpers/postgres.js';
import { SlackApiStandIn } from '../helpers/slack-api.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../helpers/slack-app.js';
import { APPROVALS_CHANNEL, APPROVERS, APPROVERS_GROUP } from '../helpers/slack-approvals.js';
import { SlackDriver } from '../helpers/slack-requests.js';

/** One structured log line a replica wrote on stderr. */
export interface LogLine {
  level: string;
  message: string;
  [field: string]: unknown;
}

/** A `bankops serve` process (the built binary) with a data directory of its own. */
export interface ServeProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** Signed Slack requests to this replica's `/slack/events`. */
  slack: SlackDriver;
  stderr(): string;
  /** Its JSON log lines so far. */
  logs(): LogLine[];
  /** SIGKILL: no shutdown, no goodbye; its sessions end with the process. */
  kill(): Promise<void>;
  /** SIGTERM, and the exit awaited. */
  stop(): Promise<void>;
}

export interface ReplicaSet {
  sandbox: RunningSandbox;
  api: SlackApiStandIn;
  dir: string;
  keyFile: string;
  /** Starts a replica named `name` (its own HOME and data directory) on the shared database. */
  start(name: string, env?: Record<string, string>): Promise<ServeProcess>;
  close(): Promise<void>;
}

export interface ReplicaSetOptions {
  databaseUrl: string;
  policyYaml: string;
  /** The execution lease, in seconds (`BANKOPS_EXECUTION_LEASE_SECONDS`). */
  leaseSeconds?: number;
  logLevel?: string;
  sandbox?: Omit<SandboxOptions, 'credentials'>;
}

/** The environment a replica gets: nothing of the caller's `BANKOPS_` or `SLACK_` settings. */
function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('BANKOPS_') && !key.startsWith('SLACK_')),
  );
}

async function spawnServe(
  name: string,
  env: Record<string, string>,
  api: SlackApiStandIn,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
    env: { ...cleanEnv(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${stderr}`)), 45_000);
    const look = (): void => {
      const match = /listening on (http:\/\/\S+)[\s\S]*Ctrl-C to stop/.exec(stderr);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stderr?.off('data', look);
      resolve(match[1]);
    };
    child.stderr?.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code}: ${stderr}`));
    });
  });
  const exited = (): Promise<unknown> =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit');
  return {
    name,
    url,
    child,
    slack: new SlackDriver({ eventsUrl: `${url}/slack/events`, signingSecret: SIGNING_SECRET, api }),
    stderr: () => stderr,
    logs: () =>
      stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine),
    kill: async () => {
      const done = exited();
      child.kill('SIGKILL');
      await done;
    },
    stop: async () => {
      const done = exited();
      child.kill('SIGTERM');
      await done;
    },
  };
}

/**
 * Replicas of `bankops serve` on one PostgreSQL database, each a process of its own with its own
 * HOME and data directory, all pointed at ONE sandbox on loopback (in this process, so a test can
 * hold its answers) and at the Slack Web API stand-in, in Slack's HTTP mode.
 */
export async function startReplicaSet(options: ReplicaSetOptions): Promise<ReplicaSet> {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-replicas-'));
  const keyFile = writeFingerprintKey(dir);
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, options.policyYaml);
  const sandbox = await startSandbox(0, { ...options.sandbox, credentials: { ...SANDBOX_DEFAULTS } });
  const api = await SlackApiStandIn.start({ token: BOT_TOKEN, groups: { [APPROVERS_GROUP]: APPROVERS } });
  const started: ServeProcess[] = [];
  return {
    sandbox,
    api,
    dir,
    keyFile,
    start: async (name, env = {}) => {
      const home = join(dir, name);
      mkdirSync(home, { recursive: true });
      const replica = await spawnServe(
        name,
        {
          HOME: home,
          XDG_DATA_HOME: join(home, 'data'),
          BANKOPS_DATABASE_URL: options.databaseUrl,
          BANKOPS_FINGERPRINT_KEY_FILE: keyFile,
          BANKOPS_BASE_URL: sandbox.url,
          BANKOPS_POLICY: policy,
          BANKOPS_EXECUTION_LEASE_SECONDS: String(options.leaseSeconds ?? 30),
          BANKOPS_LOG_LEVEL: options.logLevel ?? 'info',
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_SIGNING_SECRET: SIGNING_SECRET,
          SLACK_API_URL: api.url,
          BANKOPS_SLACK_APPROVALS_CHANNEL: APPROVALS_CHANNEL,
          ...env,
        },
        api,
      );
      started.push(replica);
      return replica;
    },
    close: async () => {
      await Promise.all(started.map((replica) => replica.stop()));
      await sandbox.close();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
