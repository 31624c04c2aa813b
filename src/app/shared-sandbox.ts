import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { type Config, ConfigError } from '../core/config.js';
import { internalError } from '../core/errors.js';
import { optional } from '../core/optional.js';
import { type Db, openDatabase } from '../core/store/sqlite/database.js';
import { sqliteSandboxStore } from '../core/store/sqlite/sandbox-state.js';
import type { RunningSandbox, SandboxOptions } from '../sandbox/server.js';
import type { SandboxService } from '../sandbox/service.js';

/**
 * One sandbox per state file. The embedded sandbox keeps its state in `bankops.sandbox.db` beside
 * the database; two processes each serving that file would lose each other's updates (the last save
 * wins). So a long-running process (`bankops sandbox`, `bankops serve`) registers the sandbox it
 * serves in `bankops.sandbox.json` beside the state file (URL and pid), and every other process uses
 * that one while it answers, starting its own only when none does.
 */

/** `bankops.db` → `bankops.sandbox.db`, beside it. */
export const sandboxDatabasePath = (databasePath: string): string =>
  databasePath.endsWith('.db') ? `${databasePath.slice(0, -3)}.sandbox.db` : `${databasePath}.sandbox`;

/** `bankops.db` → `bankops.sandbox.json`: which process serves the state file, while it runs. */
const registrationPath = (databasePath: string): string =>
  `${sandboxDatabasePath(databasePath).replace(/\.db$/, '')}.json`;

export interface Registration {
  url: string;
  pid: number;
  stateFile: string;
  startedAt: string;
}

/**
 * How long a loopback URL has to say whether it is a bankops sandbox. Generous: a sandbox that
 * answered late was taken for the real service (votes then counted as the OS account's), and
 * anything else on loopback answers at once (a 404, or the connection refused).
 */
const PROBE_MS = 10_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists and belongs to someone else.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/** What `GET /_sandbox/info` says at `url`, if a bankops sandbox answers there in time. */
export async function sandboxInfo(url: string): Promise<Record<string, unknown> | undefined> {
  try {
    const response = await fetch(new URL('/_sandbox/info', url), { signal: AbortSignal.timeout(PROBE_MS) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as unknown;
    const info = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    return info.sandbox === 'bankops' ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The registered sandbox serving this database's state file, if its process lives and it answers. */
export async function liveSandbox(databasePath: string): Promise<Registration | undefined> {
  let registration: Registration;
  try {
    registration = JSON.parse(readFileSync(registrationPath(databasePath), 'utf8')) as Registration;
  } catch {
    return undefined;
  }
  if (typeof registration.url !== 'string' || !Number.isInteger(registration.pid)) return undefined;
  if (!alive(registration.pid)) return undefined;
  const info = await sandboxInfo(registration.url);
  if (info?.stateFile !== sandboxDatabasePath(databasePath)) return undefined;
  return registration;
}

/**
 * Checks that the loopback BANKOPS_BASE_URL given without credentials is a bankops sandbox (which
 * takes its default credentials); anything else needs the service's credentials.
 */
export async function requireSandboxAt(url: string): Promise<void> {
  if ((await sandboxInfo(url)) !== undefined) return;
  throw new ConfigError([
    `BANKOPS_API_KEY, BANKOPS_PRODUCT_ID, BANKOPS_USER_ID, BANKOPS_COMPANY_ID: required, since BANKOPS_BASE_URL (${url}) is not a bankops sandbox (nothing answered GET /_sandbox/info as one)`,
  ]);
}

/** Says that this process serves the state file at `url`; the returned function takes it back. */
function register(databasePath: string, url: string): () => void {
  const path = registrationPath(databasePath);
  const registration: Registration = {
    url,
    pid: process.pid,
    stateFile: sandboxDatabasePath(databasePath),
    startedAt: new Date().toISOString(),
  };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(registration, null, 2)}\n`);
  renameSync(temporary, path);
  return () => {
    try {
      const current = JSON.parse(readFileSync(path, 'utf8')) as Registration;
      if (current.pid === process.pid && current.url === url) rmSync(path, { force: true });
    } catch {
      // Already gone, or replaced by another process: nothing of ours to take back.
    }
  };
}

export interface SharedSandboxOptions {
  /** Register the sandbox this process starts, for the others (long-running processes). */
  share?: boolean;
  /** Port for a sandbox started here (0: any free one). */
  port?: number;
  /** Use a sandbox another process registered, when one answers (default true). */
  attach?: boolean;
  /** Told of every request a sandbox started here handles (`bankops sandbox --verbose`). */
  onRequest?: SandboxOptions['onRequest'];
  /**
   * A sandbox started here answers this process only, in it, without a listener (a one-shot
   * command: nobody else connects to it, and its state file carries what it did to the next).
   * Not with `share`.
   */
  inProcess?: boolean;
}

/** The sandbox a runtime talks to: one registered by another process, or one started here. */
export interface SharedSandbox {
  /** Where it listens; absent for one answering in this process only (`inProcess`). */
  url?: string;
  /** Its requests handed over in this process (`inProcess`), in place of a URL. */
  dispatch?: SandboxService['dispatch'];
  /** Started by this process (absent when another process serves the state). */
  own?: SandboxService;
  /** Served by another process (absent when started here). */
  attached?: Registration;
  close(): Promise<void>;
}

/** Where a client sends its requests to this sandbox: its dispatch in this process, or its URL. */
export function endpointOf(sandbox: SharedSandbox): string | SandboxService['dispatch'] {
  const endpoint = sandbox.dispatch ?? sandbox.url;
  if (endpoint === undefined) throw internalError('a sandbox with neither a URL nor a dispatch');
  return endpoint;
}

/**
 * The embedded sandbox for `config`: the one another process serves over the same state file when
 * it answers, else one started here (and registered, with `share`). Keeps what a service keeps
 * (card numbers, PINs, webhook keys) in its own file, never in the audit and approvals database.
 */
export async function sharedSandbox(
  config: Config,
  options: SharedSandboxOptions = {},
): Promise<SharedSandbox> {
  if (options.attach !== false) {
    const attached = await liveSandbox(config.databasePath);
    if (attached !== undefined) return { url: attached.url, attached, close: async () => {} };
  }
  const stateFile = sandboxDatabasePath(config.databasePath);
  const db: Db = openDatabase(stateFile, { synchronous: 'NORMAL' });
  const sandboxOptions: SandboxOptions = {
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
    persistence: sqliteSandboxStore(db),
    info: { stateFile },
    ...optional('onRequest', options.onRequest),
  };
  if (options.inProcess === true && options.share !== true) {
    try {
      // Loaded here: a process that talks to another sandbox, or to none, never loads this one.
      const { openSandbox } = await import('../sandbox/service.js');
      const sandbox = openSandbox(sandboxOptions);
      return {
        dispatch: sandbox.dispatch,
        own: sandbox,
        close: async () => {
          db.close();
        },
      };
    } catch (error) {
      db.close();
      throw error;
    }
  }
  let sandbox: RunningSandbox;
  try {
    // Loaded here, as the one above.
    const { startSandbox } = await import('../sandbox/server.js');
    sandbox = await startSandbox(options.port ?? 0, sandboxOptions);
  } catch (error) {
    db.close();
    throw error;
  }
  const unregister = options.share ? register(config.databasePath, sandbox.url) : undefined;
  return {
    url: sandbox.url,
    own: sandbox,
    close: async () => {
      unregister?.();
      await sandbox.close();
      db.close();
    },
  };
}

/** A runtime's embedded sandbox, found or started when it is first needed. */
export interface LazySandbox {
  /** The sandbox, found or started at the first call (once; a failed start is tried again). */
  start(): Promise<SharedSandbox>;
  /** The sandbox once `start` gave it. */
  current(): SharedSandbox | undefined;
  close(): Promise<void>;
}

/**
 * The embedded sandbox as a runtime holds it: `sharedSandbox` at the first `start`, which the
 * service client calls at its first request, so a command that asks the service nothing (`approvals
 * list` with nothing due) neither starts nor loads a sandbox.
 */
export function lazySandbox(config: Config, options: SharedSandboxOptions): LazySandbox {
  let starting: Promise<SharedSandbox> | undefined;
  let started: SharedSandbox | undefined;
  return {
    start: () => {
      if (starting !== undefined) return starting;
      const attempt = sharedSandbox(config, options).then((sandbox) => {
        started = sandbox;
        return sandbox;
      });
      starting = attempt;
      attempt.catch(() => {
        if (starting === attempt) starting = undefined;
      });
      return attempt;
    },
    current: () => started,
    close: async () => {
      const sandbox = await starting?.catch(() => undefined);
      starting = undefined;
      started = undefined;
      await sandbox?.close();
    },
  };
}

/** The sandbox the next command would talk to, and how it was found. */
export interface SandboxInUse {
  url: string;
  /** `BANKOPS_BASE_URL`, a registered process, or one started for this command. */
  source: 'base-url' | 'registered' | 'started';
  /** The registering process, when `registered`. */
  pid?: number;
  close(): Promise<void>;
}

/**
 * Which sandbox `call` and `approvals` use with this configuration: the one at BANKOPS_BASE_URL when
 * that is a bankops sandbox; else the one another process serves over the state file; else the
 * embedded sandbox over the state file, started for the occasion (its state persists).
 */
export async function sandboxInUse(config: Config): Promise<SandboxInUse> {
  if (config.service.baseUrl !== undefined) {
    const url = config.service.baseUrl;
    if ((await sandboxInfo(url)) === undefined) {
      throw new ConfigError([
        `BANKOPS_BASE_URL: ${url} is not a bankops sandbox (nothing answered GET /_sandbox/info as one); the sandbox commands drive only a sandbox`,
      ]);
    }
    return { url, source: 'base-url', close: async () => {} };
  }
  const shared = await sharedSandbox(config);
  if (shared.url === undefined) throw internalError('a sandbox started for its URL has none');
  if (shared.attached !== undefined) {
    return { url: shared.url, source: 'registered', pid: shared.attached.pid, close: shared.close };
  }
  return { url: shared.url, source: 'started', close: shared.close };
}
