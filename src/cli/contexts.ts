import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { settingOf, VARIABLES } from '../app/variables.js';
import { didYouMean } from '../present/suggest.js';
import { type CliIo, UsageError } from './io.js';

/**
 * Named contexts, as kubectl's contexts or gh's hosts: a YAML file of variable sets, one chosen on
 * purpose with `--context <name>` or `BANKOPS_CONTEXT`, so an operator switches between the sandbox
 * and production knowingly:
 *
 *   contexts:
 *     sandbox: { BANKOPS_DB: ~/bankops/sandbox.db }
 *     prod:
 *       BANKOPS_DATABASE_URL: postgres://bankops@db.internal:5432/bankops
 *       BANKOPS_BASE_URL: https://api.example.com
 *
 * A context says where the CLI talks, whole: while one is in force, the environment's service and
 * database variables it does not name are not used (a shell that still holds production's URL does
 * not leak into the sandbox's context). The rest of the environment applies as usual.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{contexts: {<name>: {<VARIABLE>: <value>}}}`, values as text; the first problem, else the contexts. */
function contextsOf(parsed: unknown): Record<string, Record<string, string>> | string {
  if (!isRecord(parsed) || !isRecord(parsed.contexts)) return 'it has no contexts: mapping';
  const out: Record<string, Record<string, string>> = {};
  for (const [name, variables] of Object.entries(parsed.contexts)) {
    if (!isRecord(variables)) return `contexts.${name} is not a mapping of variables`;
    const set: Record<string, string> = {};
    for (const [key, value] of Object.entries(variables)) {
      if (!['string', 'number', 'boolean'].includes(typeof value))
        return `contexts.${name}.${key} is not a single value`;
      set[key] = String(value);
    }
    out[name] = set;
  }
  return out;
}

/** Where the contexts are: BANKOPS_CONTEXTS_FILE, else `$XDG_CONFIG_HOME/bankops/contexts.yaml`. */
export function contextsFile(env: CliIo['env'], cwd: string): string {
  const named = settingOf(env, 'BANKOPS_CONTEXTS_FILE');
  if (named !== undefined) return resolve(cwd, named);
  const config = settingOf(env, 'XDG_CONFIG_HOME') ?? join(settingOf(env, 'HOME') ?? homedir(), '.config');
  return join(config, 'bankops', 'contexts.yaml');
}

/** The variables that say where the CLI talks: a context in force sets these alone. */
const WHERE = new Set(
  VARIABLES.filter((v) => v.group === 'service' || v.group === 'database').map((v) => v.name),
);
const KNOWN = VARIABLES.map((v) => v.name).filter(
  (name) => name !== 'BANKOPS_CONTEXT' && name !== 'BANKOPS_CONTEXTS_FILE',
);

/** `~/x` as the home directory's x: the file is written by hand. */
const expandHome = (value: string, env: CliIo['env']): string =>
  value.startsWith('~/') ? join(settingOf(env, 'HOME') ?? homedir(), value.slice(2)) : value;

async function readContexts(file: string): Promise<Record<string, Record<string, string>>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(
      `${missing ? 'no contexts file at' : 'cannot read the contexts file'} ${file} (BANKOPS_CONTEXTS_FILE names another; bankops help config shows its shape)`,
    );
  }
  const { parse } = await import('yaml');
  let contexts: ReturnType<typeof contextsOf>;
  try {
    contexts = contextsOf(parse(text));
  } catch (error) {
    contexts = (error as Error).message.split('\n')[0] ?? 'not YAML';
  }
  if (typeof contexts === 'string')
    throw new UsageError(
      `the contexts file ${file} is not {contexts: {<name>: {<VARIABLE>: <value>, …}}}: ${contexts}`,
    );
  return contexts;
}

/**
 * The run's environment under the context asked for (`--context`, else BANKOPS_CONTEXT), or as it is
 * when none is. The file is read only then: a run without a context reads nothing more.
 */
export async function withContext(io: CliIo, asked: string | undefined): Promise<CliIo> {
  const name = asked ?? settingOf(io.env, 'BANKOPS_CONTEXT');
  if (name === undefined) return io;
  const file = contextsFile(io.env, io.cwd);
  const contexts = await readContexts(file);
  const chosen = Object.hasOwn(contexts, name) ? contexts[name] : undefined;
  if (chosen === undefined) {
    const names = Object.keys(contexts);
    const hint = didYouMean(name, names);
    throw new UsageError(
      `no context '${name}' in ${file}${hint === '' ? '' : `; ${hint}`} (contexts: ${names.join(', ') || 'none'})`,
    );
  }
  for (const variable of Object.keys(chosen)) {
    if (KNOWN.includes(variable)) continue;
    const hint = didYouMean(variable, KNOWN);
    throw new UsageError(
      `context '${name}' in ${file} sets ${variable}, which bankops does not read${hint === '' ? '' : `; ${hint}`}`,
    );
  }
  const kept = Object.fromEntries(Object.entries(io.env).filter(([key]) => !WHERE.has(key)));
  const set = Object.fromEntries(
    Object.entries(chosen).map(([key, value]) => [key, expandHome(value, io.env)]),
  );
  return { ...io, env: { ...kept, ...set, BANKOPS_CONTEXT: name }, context: { name, file } };
}

/**
 * The options every command takes, taken out of the arguments: `--context <name>` (anywhere, no
 * command has one of its own) and a leading `--verbose` (say where the CLI talks, on stderr).
 */
export function globalOptions(argv: readonly string[]): {
  argv: string[];
  context?: string;
  verbose: boolean;
} {
  const rest: string[] = [];
  let context: string | undefined;
  let verbose = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--context') {
      context = argv[i + 1];
      if (context === undefined || context.startsWith('-')) throw new UsageError('--context needs a name');
      i += 1;
    } else if (arg.startsWith('--context=')) context = arg.slice('--context='.length);
    else if (arg === '--verbose' && rest.length === 0) verbose = true;
    else rest.push(arg);
  }
  return { argv: rest, ...(context === undefined ? {} : { context }), verbose };
}
