/**
 * Every environment variable bankops reads, grouped as a person sets them up, each with one line
 * on what it does: `.env.example` lists exactly these (a test holds them together), and
 * `bankops config check` shows each one's value in force, secrets masked.
 */

import { isLoopback } from '../core/loopback.js';
import { defaultPolicyPath } from '../core/policy/default-path.js';
import { describeDatabase } from '../core/store/postgres/url.js';

export type VariableGroup = 'service' | 'slack' | 'mcp' | 'database' | 'cli';

/** The environment a configuration is read from. */
export type Env = Readonly<Record<string, string | undefined>>;

export interface Variable {
  name: string;
  group: VariableGroup;
  /** One line: what it does. */
  what: string;
  /** What applies when it is unset, in words (in this environment, when that depends on it). */
  otherwise: string | ((env: Env) => string);
  /** A credential: never shown, only whether it is set. */
  secret?: true;
  /** How its value is shown when part of it is secret (a URL's password). */
  show?: (value: string) => string;
}

export const GROUP_TITLES: Readonly<Record<VariableGroup, string>> = {
  service: 'Service',
  slack: 'Slack',
  mcp: 'MCP',
  database: 'Database, policy and approvals',
  cli: 'CLI and logs',
};

/** A variable's value, trimmed; undefined when unset or empty. */
export const settingOf = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** A group's title as the environment makes it: the service is the embedded sandbox without a URL. */
export function groupTitle(group: VariableGroup, env: Env): string {
  if (group === 'service' && settingOf(env, 'BANKOPS_BASE_URL') === undefined)
    return `${GROUP_TITLES.service} (BANKOPS_BASE_URL unset: the embedded sandbox)`;
  return GROUP_TITLES[group];
}

/** What applies when `variable` is unset, in this environment. */
export const otherwiseOf = (variable: Variable, env: Env): string =>
  typeof variable.otherwise === 'string' ? variable.otherwise : variable.otherwise(env);

/** A service credential left unset: the sandbox's, unless the URL names a service that is not one here. */
function credential(env: Env): string {
  const url = settingOf(env, 'BANKOPS_BASE_URL');
  let sandboxHere = url === undefined;
  try {
    sandboxHere ||= isLoopback(url);
  } catch {
    // not a URL: config check names the mistake
  }
  return sandboxHere
    ? "the sandbox's"
    : 'required with BANKOPS_BASE_URL, unless it is a bankops sandbox on this machine';
}

/** `postgres at host:port/db`: never the user's password nor the query string. */
function shownDatabase(url: string): string {
  try {
    return `PostgreSQL at ${describeDatabase(url)}`;
  } catch {
    return 'not a postgres:// URL';
  }
}

export const VARIABLES: readonly Variable[] = [
  {
    name: 'BANKOPS_BASE_URL',
    group: 'service',
    what: "the service's address",
    otherwise: 'the embedded sandbox',
  },
  {
    name: 'BANKOPS_API_KEY',
    group: 'service',
    what: 'x-api-key for the service',
    otherwise: credential,
    secret: true,
  },
  { name: 'BANKOPS_PRODUCT_ID', group: 'service', what: 'x-product-id', otherwise: credential },
  { name: 'BANKOPS_USER_ID', group: 'service', what: 'x-user-id', otherwise: credential },
  {
    name: 'BANKOPS_COMPANY_ID',
    group: 'service',
    what: 'company id, also the default companyCode',
    otherwise: credential,
  },
  {
    name: 'BANKOPS_USER_EMAIL',
    group: 'service',
    what: "the service user's e-mail",
    otherwise: "the sandbox's",
  },
  { name: 'BANKOPS_CLIENT_ID', group: 'service', what: 'optional x-client-id', otherwise: 'not sent' },
  {
    name: 'BANKOPS_PROGRAM_CODE',
    group: 'service',
    what: 'default program code of tool inputs',
    otherwise: 'PRG-DEMO',
  },
  {
    name: 'BANKOPS_AGENT_CODE',
    group: 'service',
    what: 'default agent code (issuing family A)',
    otherwise: 'AGT-DEMO',
  },
  {
    name: 'BANKOPS_SUBAGENT_CODE',
    group: 'service',
    what: 'default sub-agent code (issuing family A)',
    otherwise: 'SUB-DEMO',
  },
  {
    name: 'BANKOPS_TIMEOUT_MS',
    group: 'service',
    what: 'per-request timeout to the service',
    otherwise: '30000',
  },
  {
    name: 'SLACK_BOT_TOKEN',
    group: 'slack',
    what: "the Slack app's bot token (xoxb-…); Slack is off without it",
    otherwise: 'Slack off',
    secret: true,
  },
  {
    name: 'SLACK_SIGNING_SECRET',
    group: 'slack',
    what: 'HTTP mode: checks every request to /slack/events',
    otherwise: 'needed for HTTP mode',
    secret: true,
  },
  {
    name: 'SLACK_APP_TOKEN',
    group: 'slack',
    what: 'Socket Mode: the app-level token (xapp-…); wins over HTTP',
    otherwise: 'HTTP mode',
    secret: true,
  },
  {
    name: 'SLACK_API_URL',
    group: 'slack',
    what: 'the Slack Web API base',
    otherwise: 'https://slack.com/api/',
  },
  {
    name: 'BANKOPS_SLACK_APPROVALS_CHANNEL',
    group: 'slack',
    what: 'channel id where approvals are posted',
    otherwise: 'none (a policy rule may name one)',
  },
  {
    name: 'BANKOPS_SLACK_AUDIT_CHANNEL',
    group: 'slack',
    what: "channel id that gets the audit log's head daily",
    otherwise: 'none',
  },
  {
    name: 'BANKOPS_SLACK_DIGEST',
    group: 'slack',
    what: 'when each approvals channel gets its morning digest (09:00 Europe/Berlin)',
    otherwise: 'no digest',
  },
  {
    name: 'BANKOPS_ALERT_INTERVAL',
    group: 'slack',
    what: 'how often balance alerts read the balances: 30s to 24h, e.g. 5m',
    otherwise: '5m',
  },
  {
    name: 'BANKOPS_PUBLIC_URL',
    group: 'slack',
    what: 'where Slack and the service reach bankops serve (proxy, tunnel)',
    otherwise: 'the listener',
  },
  {
    name: 'BANKOPS_MCP_HOST',
    group: 'mcp',
    what: 'address bankops serve listens on (MCP keys live in the policy)',
    otherwise: '127.0.0.1',
  },
  {
    name: 'BANKOPS_OAUTH_ISSUER',
    group: 'mcp',
    what: 'identity provider issuer URL(s), comma-separated: /mcp takes its access tokens',
    otherwise: "MCP over HTTP takes the policy's keys only",
  },
  {
    name: 'BANKOPS_OAUTH_AUDIENCE',
    group: 'mcp',
    what: "what access tokens' aud must hold (Entra ID: the application id URI)",
    otherwise: 'BANKOPS_PUBLIC_URL/mcp',
  },
  {
    name: 'BANKOPS_OAUTH_MAX_TOKEN_AGE',
    group: 'mcp',
    what: 'longest an access token is taken after it was issued (600, 10m)',
    otherwise: '10m',
  },
  {
    name: 'BANKOPS_OAUTH_CLIENT_ID',
    group: 'mcp',
    what: 'public client bankops login signs in as (device flow)',
    otherwise: 'bankops login cannot run',
  },
  {
    name: 'BANKOPS_OAUTH_INTROSPECTION_URL',
    group: 'mcp',
    what: "identity provider's introspection endpoint (RFC 7662): opaque access tokens",
    otherwise: 'access tokens must be JWTs',
  },
  {
    name: 'BANKOPS_OAUTH_INTROSPECTION_CLIENT_ID',
    group: 'mcp',
    what: 'confidential client bankops introspects tokens as',
    otherwise: 'required with BANKOPS_OAUTH_INTROSPECTION_URL',
  },
  {
    name: 'BANKOPS_OAUTH_INTROSPECTION_CLIENT_SECRET',
    group: 'mcp',
    what: "that client's secret (HTTP Basic at the introspection endpoint)",
    otherwise: 'required with BANKOPS_OAUTH_INTROSPECTION_URL',
    secret: true,
  },
  {
    name: 'BANKOPS_METRICS_KEY',
    group: 'mcp',
    what: 'bearer key for /metrics of bankops serve (16+ characters)',
    otherwise: '/metrics answers loopback clients only',
    secret: true,
  },
  {
    name: 'BANKOPS_DB',
    group: 'database',
    what: 'SQLite file: audit log, approvals; sandbox state and key beside it',
    otherwise: '~/.local/share/bankops/bankops.db',
  },
  {
    name: 'BANKOPS_DATABASE_URL',
    group: 'database',
    what: 'postgres://… PostgreSQL database for everything durable, shared by replicas',
    otherwise: 'the SQLite file BANKOPS_DB',
    show: shownDatabase,
  },
  {
    name: 'BANKOPS_FINGERPRINT_KEY_FILE',
    group: 'database',
    what: 'key for fingerprints of secret inputs (64+ hex, not world-readable), shared by replicas',
    otherwise: (env) =>
      settingOf(env, 'BANKOPS_DATABASE_URL') === undefined
        ? 'bankops.key beside the database, made at first start'
        : 'required with BANKOPS_DATABASE_URL',
  },
  {
    name: 'BANKOPS_POLICY',
    group: 'database',
    what: 'policy file: roles, approval rules, MCP keys',
    otherwise: () => `the shipped ${defaultPolicyPath()}`,
  },
  {
    name: 'BANKOPS_APPROVAL_TTL_SECONDS',
    group: 'database',
    what: 'how long an approval may wait',
    otherwise: '86400',
  },
  {
    name: 'BANKOPS_QUOTE_TOLERANCE_PERCENT',
    group: 'database',
    what: 'how much worse a fresh quote may be than the approved one',
    otherwise: '0.5',
  },
  {
    name: 'BANKOPS_RESEND_DELAYS_MS',
    group: 'database',
    what: 'pauses before an unanswered approved call is sent again (same request id), comma-separated',
    otherwise: '1000,4000',
  },
  {
    name: 'BANKOPS_RESEND_WINDOW',
    group: 'database',
    what: 'serve and mcp: how long an unanswered approved call is re-sent before it is unresolved',
    otherwise: '10m (0: a few re-sends only, as short commands)',
  },
  {
    name: 'BANKOPS_EXECUTION_LEASE_SECONDS',
    group: 'database',
    what: 'how long an executing approval stays with a replica that stopped renewing it',
    otherwise: '30',
  },
  {
    name: 'BANKOPS_ACTOR',
    group: 'cli',
    what: 'who acts at the CLI (--as overrides)',
    otherwise: 'the OS user',
  },
  {
    name: 'BANKOPS_OUTPUT',
    group: 'cli',
    what: 'text or json: the CLI output whatever stdout is',
    otherwise: 'text on a terminal',
  },
  {
    name: 'BANKOPS_LOG_LEVEL',
    group: 'cli',
    what: 'debug, info, warn or error (JSON lines on stderr)',
    otherwise: 'info (serve), warn (CLI)',
  },
  {
    name: 'BANKOPS_CONTEXT',
    group: 'cli',
    what: 'the named context of the contexts file whose variables the CLI uses (--context overrides)',
    otherwise: 'none: the environment alone',
  },
  {
    name: 'BANKOPS_CONTEXTS_FILE',
    group: 'cli',
    what: 'the YAML file of named contexts (contexts: {prod: {BANKOPS_DATABASE_URL: …}})',
    otherwise: '~/.config/bankops/contexts.yaml ($XDG_CONFIG_HOME)',
  },
];

/** A secret as shown: whether it is set and how long, never a character of it. */
export const masked = (value: string): string => `set (${value.length} characters, hidden)`;
