import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadServeSettings } from '../../app/config.js';
import {
  configuredAdmin,
  missingFingerprintKey,
  serviceWords,
  storedIn,
  storeWords,
} from '../../app/database.js';
import { readFingerprintKeyFile } from '../../app/fingerprint-key.js';
import {
  GROUP_TITLES,
  groupTitle,
  masked,
  otherwiseOf,
  settingOf,
  VARIABLES,
  type VariableGroup,
} from '../../app/variables.js';
import { messageOf } from '../../core/errors.js';
import { optional } from '../../core/optional.js';
import { PolicyError, policyPath, readPolicyFile, weakerForLarger } from '../../core/policy/index.js';
import type { DatabaseCheck } from '../../core/store/backend.js';
import type { Block, Field, OutputDocument } from '../../present/output/index.js';
import { SLACK_OFF_HINT } from '../../slack/config.js';
import { cliConfig } from '../config.js';
import { cliIo, EXIT, out, printJson, UsageError } from '../io.js';
import { outputMode, printDocument } from '../output.js';

export const CONFIG_HELP = `Usage: bankops config check [--json]

Prints the configuration in force: every variable bankops reads, grouped (service, Slack, MCP,
database, CLI), with its value or what applies when it is unset; secrets say only that they are
set. Then, for each front end (CLI, MCP on stdio, MCP over HTTP, Slack), whether it can run and
what it still needs. .env.example lists the same variables with a line on each.

First, where the CLI talks: the named context in force (--context <name> or BANKOPS_CONTEXT, from
the contexts file BANKOPS_CONTEXTS_FILE, default ~/.config/bankops/contexts.yaml), the database and
the service. A contexts file holds named sets of variables; a context in force sets the service and
database variables alone (those of the environment it does not name are not used):

  contexts:
    sandbox:
      BANKOPS_DB: ~/bankops/sandbox.db
    prod:
      BANKOPS_DATABASE_URL: postgres://bankops@db.internal:5432/bankops
      BANKOPS_FINGERPRINT_KEY_FILE: /etc/bankops/fingerprint.key
      BANKOPS_BASE_URL: https://api.example.com

Last, the database, never changed: on PostgreSQL whether it answers (3 s for the connection and
for each of two statements), its schema's version against this bankops's, and how the audit log is
guarded against the role bankops logs in as; on SQLite whether this user may read and write the
file and its directory.

Exit status: 0 the configuration is valid (a front end may still be off), 1 the database cannot be
used (it does not answer, cannot be read or written, or a newer bankops migrated it), 2 a value is
invalid.
`;

interface FrontEnd {
  name: string;
  ready: boolean;
  words: string;
}

type Env = Record<string, string | undefined>;

function variableFields(env: Env, group: VariableGroup): Field[] {
  return VARIABLES.filter((v) => v.group === group).map((v) => {
    const value = settingOf(env, v.name);
    const text =
      value === undefined
        ? `unset: ${otherwiseOf(v, env)}`
        : v.secret === true
          ? masked(value)
          : (v.show?.(value) ?? value);
    return { key: v.name, label: v.name, value: { text, kind: value === undefined ? 'empty' : 'text' } };
  });
}

/**
 * Why no front end could open the database: PostgreSQL without the fingerprint key file, or a key
 * file named that cannot be used (its content never said). Whether the database answers is not
 * checked here: `bankops db migrate` or `/healthz` say it.
 */
function keyProblem(config: Config): string | undefined {
  const missing = missingFingerprintKey(config);
  if (missing !== undefined || config.fingerprintKeyFile === undefined) return missing;
  try {
    readFingerprintKeyFile(config.fingerprintKeyFile);
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * What each front end can do with this configuration, and what it still needs. None that would run
 * can while the fingerprint key is missing or unusable: each says so, and the key's problem is
 * listed with the others.
 */
function frontEnds(config: Config | undefined, env: Env, problems: string[], weaker: string[]): FrontEnd[] {
  if (config === undefined) return [];
  const ends = eachFrontEnd(config, env, problems, weaker);
  const key = keyProblem(config);
  if (key === undefined) return ends;
  problems.unshift(key);
  const words = 'cannot open the database: its fingerprint key (below)';
  return ends.map((end) => (end.ready ? { ...end, ready: false, words } : end));
}

function eachFrontEnd(config: Config, env: Env, problems: string[], weaker: string[]): FrontEnd[] {
  const service = serviceWords(config);
  let keys: number | undefined;
  try {
    const policy = readPolicyFile(policyPath(config.policyPath, env as NodeJS.ProcessEnv));
    keys = policy.mcpKeys.length;
    weaker.push(...weakerForLarger(policy));
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    problems.push(error.message);
  }
  const out: FrontEnd[] = [
    {
      name: 'CLI',
      ready: true,
      words: `ready against ${service}, acting as ${config.cliActor}; ${storedIn(config)}`,
    },
    { name: 'MCP (stdio)', ready: true, words: "ready: bankops mcp acts as the policy's stdio actor" },
    keys === undefined
      ? { name: 'MCP (HTTP)', ready: false, words: 'the policy could not be read (below)' }
      : keys === 0
        ? {
            name: 'MCP (HTTP)',
            ready: false,
            words: 'no client can connect: the policy lists no MCP key (docs/mcp-http.md adds one)',
          }
        : {
            name: 'MCP (HTTP)',
            ready: true,
            words: `ready: bankops serve on ${settingOf(env, 'BANKOPS_MCP_HOST') ?? '127.0.0.1'}, ${keys} key${keys === 1 ? '' : 's'} in the policy`,
          },
  ];
  try {
    const serve = loadServeSettings(env);
    if (!serve.slack.enabled) {
      // Until then, on the embedded sandbox, `serve` shows the app in a local workspace (docs/try-slack.md).
      const local =
        config.mode === 'embedded' && config.databaseUrl === undefined
          ? '; until then bankops serve runs it in a local workspace at /try/slack'
          : '';
      out.push({ name: 'Slack', ready: false, words: `off: ${serve.slack.why}; ${SLACK_OFF_HINT}${local}` });
    } else {
      const needs: string[] = [];
      if (serve.slack.config.mode === 'http' && serve.publicUrl === undefined)
        needs.push('BANKOPS_PUBLIC_URL (Slack must reach <public URL>/slack/events)');
      if (serve.slack.config.approvalsChannel === undefined)
        needs.push('BANKOPS_SLACK_APPROVALS_CHANNEL (approvals go to a channel only where a rule names one)');
      out.push({
        name: 'Slack',
        ready: true,
        words: `on (${serve.slack.config.mode === 'http' ? 'HTTP' : 'Socket Mode'})${needs.length === 0 ? '' : `; also set ${needs.join(', ')}`}`,
      });
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
    out.push({ name: 'Slack', ready: false, words: 'a value is invalid (below)' });
  }
  return out;
}

export async function configCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [sub, ...rest] = positionals;
  if (values.help || sub === 'help') {
    out(CONFIG_HELP);
    return EXIT.ok;
  }
  if (sub !== 'check' || rest.length > 0)
    throw new UsageError(
      sub === undefined ? 'config needs check' : `unknown config command '${sub}'`,
      CONFIG_HELP,
    );
  const env = cliIo().env;
  const problems: string[] = [];
  let config: Config | undefined;
  try {
    config = cliConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  // The policy's controls that ask less for larger amounts: warnings, not problems.
  const weaker: string[] = [];
  let ends = frontEnds(config, env, problems, weaker);
  const invalid = problems.length > 0;
  const database = config === undefined ? undefined : await checkDatabase(config);
  if (database?.blocking !== undefined) {
    problems.push(database.blocking);
    const words = 'cannot use the database (below)';
    ends = ends.map((end) => (end.ready ? { ...end, ready: false, words } : end));
  }
  const warnings = [...weaker, ...(database?.warnings ?? [])];
  const mode = outputMode(values.json);
  const context = cliIo().context;
  const where =
    config === undefined
      ? undefined
      : {
          context:
            context === undefined ? 'none (the environment alone)' : `${context.name}, from ${context.file}`,
          database: storeWords(config),
          service: serviceWords(config),
        };
  if (!mode.text) {
    printJson({
      variables: VARIABLES.map((v) => {
        const value = settingOf(env, v.name);
        return {
          name: v.name,
          group: v.group,
          set: value !== undefined,
          ...(value === undefined || v.secret === true ? {} : { value: v.show?.(value) ?? value }),
        };
      }),
      ...optional('where', where),
      frontEnds: ends,
      ...optional('database', database?.json),
      problems,
      warnings,
    });
  } else {
    const groups = Object.keys(GROUP_TITLES) as VariableGroup[];
    const blocks: Block[] = groups.map((group) => ({
      type: 'record',
      title: groupTitle(group, env),
      fields: variableFields(env, group),
    }));
    if (where !== undefined) {
      const line = (key: string, label: string, text: string): Field => ({
        key,
        label,
        value: { text, kind: 'text' },
      });
      blocks.unshift({
        type: 'record',
        title: 'Where the CLI talks',
        fields: [
          line('context', 'Context', where.context),
          line('database', 'Database', where.database),
          line('service', 'Service', where.service),
        ],
      });
    }
    if (ends.length > 0) {
      blocks.push({
        type: 'record',
        title: 'Front ends',
        fields: ends.map((e) => ({ key: e.name, label: e.name, value: { text: e.words, kind: 'text' } })),
      });
    }
    if (database !== undefined) {
      const fields = database.lines.map(
        ({ label, text }): Field => ({ key: label, label, value: { text, kind: 'text' } }),
      );
      blocks.push({ type: 'record', title: 'Database', fields });
    }
    for (const problem of [...problems, ...warnings])
      blocks.push({ type: 'note', text: problem, tone: 'warning' });
    const doc: OutputDocument = { title: 'Configuration in force', blocks };
    printDocument(() => doc, mode);
  }
  return exitOf(invalid, database);
}

/** How long the database check waits for the server: to connect, then for each of its two statements. */
const WAIT_MS = 3_000;

/**
 * Whether the configured database can be used, changing nothing: PostgreSQL connected to (`WAIT_MS`
 * for the connection and for each statement), its schema's version against this bankops's, and how
 * the audit log is guarded against the role of the URL; SQLite, whether this user may read and
 * write the file and its directory (the file is not opened).
 */
async function checkDatabase(config: Config): Promise<DatabaseCheck> {
  const admin = await configuredAdmin(config, 'config check', WAIT_MS);
  try {
    return await admin.inspect();
  } finally {
    await admin.close();
  }
}

/** An invalid value first (2), then a database that cannot be used (1). */
function exitOf(invalid: boolean, database: DatabaseCheck | undefined): number {
  if (invalid) return EXIT.usage;
  return database?.blocking === undefined ? EXIT.ok : EXIT.failed;
}
