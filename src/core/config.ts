import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { CodedError, ErrorCode } from './errors.js';
import { issueWords } from './input-words.js';
import { isLoopback } from './loopback.js';
import { optional } from './optional.js';
import { readPostgresUrl } from './store/postgres/url.js';

/**
 * Configuration from the environment, validated once at start-up. A bad value stops start-up with a
 * message naming the variable; no service URL means the embedded sandbox (with its credentials).
 */
const text = z.string().trim().min(1);
const positiveInt = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .positive();

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `10m`, `90s`, `1h`, `1500ms`, `0` → milliseconds; undefined when it is none of these. */
function durationMs(text: string): number | undefined {
  if (text === '0') return 0;
  const match = /^(\d{1,7})(ms|s|m|h)$/.exec(text);
  if (match === null) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

const DEFAULT_RESEND_WINDOW_MS = 10 * 60_000;

const EnvSchema = z.object({
  BANKOPS_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  BANKOPS_API_KEY: text.optional(),
  BANKOPS_PRODUCT_ID: text.optional(),
  BANKOPS_USER_ID: text.optional(),
  BANKOPS_COMPANY_ID: text.optional(),
  BANKOPS_USER_EMAIL: text.optional(),
  BANKOPS_CLIENT_ID: text.optional(),
  BANKOPS_PROGRAM_CODE: text.optional(),
  BANKOPS_AGENT_CODE: text.optional(),
  BANKOPS_SUBAGENT_CODE: text.optional(),
  BANKOPS_TIMEOUT_MS: positiveInt.max(300_000).default(30_000),
  BANKOPS_DB: text.optional(),
  BANKOPS_DATABASE_URL: text
    .refine((value) => /^postgres(?:ql)?:\/\//i.test(value), 'must start with postgres:// or postgresql://')
    .refine(
      (value) => !/^postgres(?:ql)?:\/\//i.test(value) || readPostgresUrl(value) !== undefined,
      'cannot be read (expected postgres://user@host:port/database)',
    )
    .optional(),
  BANKOPS_FINGERPRINT_KEY_FILE: text.optional(),
  BANKOPS_POLICY: text.optional(),
  BANKOPS_ACTOR: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._@-]{1,64}$/, 'letters, digits and . _ @ - only, at most 64')
    .optional(),
  BANKOPS_APPROVAL_TTL_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second (an approval that expires at once could never be approved)')
    .max(366 * 24 * 3600, 'must be at most a year (366 days) of seconds')
    .default(24 * 3600),
  BANKOPS_QUOTE_TOLERANCE_PERCENT: z.coerce.number({ error: 'must be a number' }).min(0).max(10).default(0.5),
  BANKOPS_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://bankops.example.com' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  BANKOPS_RESEND_DELAYS_MS: z
    .string()
    .trim()
    .regex(/^\d{1,6}(,\d{1,6}){0,9}$/, 'must be milliseconds separated by commas, e.g. 1000,4000')
    .transform((text) => text.split(',').map(Number))
    .optional(),
  BANKOPS_RESEND_WINDOW: z
    .string()
    .trim()
    .transform((text, ctx) => {
      const ms = durationMs(text);
      if (ms === undefined || ms > 24 * 3600_000) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a duration such as 10m, 90s or 1h (at most 24h; 0 re-sends only a few times, as short commands do), not "${text}"`,
        });
        return z.NEVER;
      }
      return ms;
    })
    .default(DEFAULT_RESEND_WINDOW_MS),
  BANKOPS_ALERT_INTERVAL: z
    .string()
    .trim()
    .regex(/^\d{1,5}(s|m|h)$/, 'must be a number and a unit, s, m or h: 30s, 5m, 1h')
    .transform((text) => durationMs(text) ?? Number.NaN)
    .refine((ms) => ms >= 30_000 && ms <= 24 * 3_600_000, 'must be between 30s and 24h')
    .default(5 * 60_000),
  BANKOPS_EXECUTION_LEASE_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .min(2, 'must be at least 2 seconds (the holder renews its lease every third of it)')
    .max(3600, "must be at most 3600 seconds (an hour before a dead replica's payout is finished)")
    .optional(),
  XDG_DATA_HOME: text.optional(),
});

export interface ServiceConfig {
  baseUrl: string;
  apiKey: string;
  productId: string;
  userId: string;
  companyId: string;
  clientId?: string;
  timeoutMs: number;
}

export interface Config {
  /** `embedded`: no service URL configured, the sandbox runs in-process on loopback. */
  mode: 'service' | 'embedded';
  /** Credentials for the service; `baseUrl` is filled in when the embedded sandbox starts. */
  service: Omit<ServiceConfig, 'baseUrl'> & { baseUrl: string | undefined };
  defaults: { companyCode: string; programCode: string; agentCode: string; subagentCode: string };
  userEmail: string;
  /** SQLite file for the audit log, approvals and the embedded sandbox's state. */
  databasePath: string;
  /**
   * `BANKOPS_DATABASE_URL`: a PostgreSQL database holding everything durable instead of the SQLite
   * file (several replicas on several hosts). The URL may carry a password: never shown.
   */
  databaseUrl?: string;
  /**
   * `BANKOPS_FINGERPRINT_KEY_FILE`: the key for fingerprints of secret inputs, made by the operator
   * and shared by every process on the database; unset, `bankops.key` beside the database file.
   */
  fingerprintKeyFile?: string;
  policyPath: string | undefined;
  /**
   * BANKOPS_BASE_URL is on this machine and names no credentials: they default to the sandbox's, and
   * start-up checks that a bankops sandbox answers there (src/app/shared-sandbox.ts).
   */
  sandboxCredentials?: true;
  /** Who is acting at the CLI (`--as` overrides it). */
  cliActor: string;
  /** The OS account running this process: the only one who decides approvals against the service. */
  osUser: string;
  approvalTtlSeconds: number;
  /** How much worse than the approved bound a fresh quote may be, in percent. */
  quoteTolerancePercent: number;
  /**
   * `BANKOPS_PUBLIC_URL` without a trailing slash: where people, Slack and the service reach
   * `bankops serve` (a proxy or tunnel). The passkey pages' origin and relying party come from it.
   */
  publicUrl?: string;
  /**
   * The pauses before sending an approved call again when the service did not answer
   * (`BANKOPS_RESEND_DELAYS_MS`; 1 s then 4 s by default): one more send than pauses.
   */
  resendDelaysMs?: readonly number[];
  /**
   * `BANKOPS_RESEND_WINDOW` (10 minutes by default; 0 turns it off): how long a long-running process
   * (`serve`, the stdio MCP server) re-sends, in the background, an approved call whose outcome stays
   * unknown before the approval is `unresolved`. Short commands re-send only `resendDelaysMs`.
   */
  resendWindowMs: number;
  /** How often balance alerts read the balances (`BANKOPS_ALERT_INTERVAL`, 5 minutes by default). */
  alertIntervalMs: number;
  /**
   * How long an executing approval stays with a replica that stopped renewing it before another
   * takes it over (`BANKOPS_EXECUTION_LEASE_SECONDS`; 30 s by default).
   */
  executionLeaseSeconds?: number;
}

export class ConfigError extends CodedError {
  constructor(readonly problems: readonly string[]) {
    super({
      code: ErrorCode.NotConfigured,
      message: `configuration error:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      issues: problems,
    });
    this.name = 'ConfigError';
  }
}

function defaultDataDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share');
  return join(base, 'bankops');
}

function osUser(): string {
  try {
    return userInfo().username.replace(/[^A-Za-z0-9._@-]/g, '_') || 'operator';
  } catch {
    return 'operator';
  }
}

/**
 * The credentials and codes used when the environment names none: the embedded sandbox's. The
 * composition root passes them in (src/app/config.ts), so the core does not depend on the sandbox.
 */
export interface EmbeddedDefaults {
  apiKey: string;
  productId: string;
  userId: string;
  companyId: string;
  userEmail: string;
  programCode: string;
  agentCode: string;
  subagentCode: string;
}

export function parseConfig(env: Record<string, string | undefined>, d: EmbeddedDefaults): Config {
  const parsed = EnvSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([key, value]) => key in EnvSchema.shape && value !== '')),
    { error: issueWords },
  );
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${String(issue.path[0] ?? '(environment)')}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const mode = e.BANKOPS_BASE_URL === undefined ? 'embedded' : 'service';
  const missing = (
    ['BANKOPS_API_KEY', 'BANKOPS_PRODUCT_ID', 'BANKOPS_USER_ID', 'BANKOPS_COMPANY_ID'] as const
  ).filter((name) => e[name] === undefined);
  // A sandbox on this machine needs no credentials: it takes its defaults (checked at start-up).
  const sandboxCredentials = mode === 'service' && missing.length > 0 && isLoopback(e.BANKOPS_BASE_URL);
  if (mode === 'service' && !sandboxCredentials) {
    if (missing.length > 0) {
      throw new ConfigError(
        missing.map((name) => `${name}: required when BANKOPS_BASE_URL is set (the service's credentials)`),
      );
    }
  }
  return {
    mode,
    service: {
      baseUrl: e.BANKOPS_BASE_URL,
      apiKey: e.BANKOPS_API_KEY ?? d.apiKey,
      productId: e.BANKOPS_PRODUCT_ID ?? d.productId,
      userId: e.BANKOPS_USER_ID ?? d.userId,
      companyId: e.BANKOPS_COMPANY_ID ?? d.companyId,
      ...optional('clientId', e.BANKOPS_CLIENT_ID),
      timeoutMs: e.BANKOPS_TIMEOUT_MS,
    },
    defaults: {
      companyCode: e.BANKOPS_COMPANY_ID ?? d.companyId,
      programCode: e.BANKOPS_PROGRAM_CODE ?? d.programCode,
      agentCode: e.BANKOPS_AGENT_CODE ?? d.agentCode,
      subagentCode: e.BANKOPS_SUBAGENT_CODE ?? d.subagentCode,
    },
    userEmail: e.BANKOPS_USER_EMAIL ?? d.userEmail,
    databasePath: e.BANKOPS_DB ?? join(defaultDataDir(env), 'bankops.db'),
    ...optional('databaseUrl', e.BANKOPS_DATABASE_URL),
    ...optional('fingerprintKeyFile', e.BANKOPS_FINGERPRINT_KEY_FILE),
    policyPath: e.BANKOPS_POLICY,
    ...(sandboxCredentials ? { sandboxCredentials: true } : {}),
    cliActor: e.BANKOPS_ACTOR ?? osUser(),
    osUser: osUser(),
    approvalTtlSeconds: e.BANKOPS_APPROVAL_TTL_SECONDS,
    quoteTolerancePercent: e.BANKOPS_QUOTE_TOLERANCE_PERCENT,
    ...optional('publicUrl', e.BANKOPS_PUBLIC_URL),
    ...optional('resendDelaysMs', e.BANKOPS_RESEND_DELAYS_MS),
    resendWindowMs: e.BANKOPS_RESEND_WINDOW,
    alertIntervalMs: e.BANKOPS_ALERT_INTERVAL,
    ...optional('executionLeaseSeconds', e.BANKOPS_EXECUTION_LEASE_SECONDS),
  };
}
