import { GROUP_TITLES, groupTitle, VARIABLES, type VariableGroup } from '../app/variables.js';
import { asCodedError, CodedError, ErrorCode, usageError } from '../core/errors.js';
import { packageVersion } from '../core/package-root.js';
import { didYouMean } from '../present/suggest.js';
import { type CommandName, overviewLines } from './commands/table.js';
import { globalOptions, withContext } from './contexts.js';
import { type CliIo, EXIT, err, errorLine, exitCodeOf, out, processIo, UsageError, withIo } from './io.js';
import { wrapLine } from './render/text.js';

/** One line of the overview: the usage padded to a column, then what it does. */
const row = (usage: string, what: string, column: number): string =>
  usage.length + 2 <= column
    ? `  ${usage.padEnd(column - 2)}${what}`
    : `  ${usage}\n  ${' '.repeat(column - 2)}${what}`;

/** Every variable of app/variables.ts by group, each with its line, wrapped to 100 columns. */
function environment(): string {
  const column = 6 + Math.max(...VARIABLES.map((v) => v.name.length));
  return (Object.keys(GROUP_TITLES) as VariableGroup[])
    .map((group) => {
      const lines = VARIABLES.filter((v) => v.group === group).flatMap((v) =>
        wrapLine(`    ${v.name.padEnd(column - 4)}${v.what}`, 100, ' '.repeat(column)),
      );
      return `  ${groupTitle(group, {})}\n${lines.join('\n')}`;
    })
    .join('\n');
}

/** `bankops --help`: the commands from the command table, the variables from app/variables.ts. */
function overview(): string {
  const lines: [string, string][] = [
    ...overviewLines(),
    ['bankops help [<command> | <tool>]', 'help for a command or a tool'],
    ['bankops --version', 'print the version'],
  ];
  const column = 59;
  return `bankops: chat-ops, MCP tools and CLI for the banking, card-issuing and notification service

Usage:
${lines.map(([usage, what]) => row(usage, what, column)).join('\n')}

With no BANKOPS_BASE_URL, call and approvals use the embedded sandbox, whose state persists beside
the database (BANKOPS_DB, default ~/.local/share/bankops/bankops.db) across commands; while
bankops sandbox or bankops serve (npm start) runs, they use the sandbox it serves.

Every command takes --context <name> (or BANKOPS_CONTEXT): the variables of that named context of
the contexts file (BANKOPS_CONTEXTS_FILE, default ~/.config/bankops/contexts.yaml) say where it
talks; bankops --verbose <command> says on stderr which database and service it uses.

Environment (bankops config check shows what is in force, secrets masked):
${environment()}
`;
}

export const HELP = overview();

type Status = number | 'running';

/**
 * Each command is loaded when it runs, so `bankops tools` does not load SQLite or the MCP SDK, and
 * `bankops mcp` does not load what only `serve` needs.
 */
const COMMANDS: Record<
  CommandName,
  () => Promise<{ run(args: string[]): Status | Promise<Status>; help: string }>
> = {
  tools: async () => {
    const m = await import('./commands/tools.js');
    return { run: m.toolsCommand, help: m.TOOLS_HELP };
  },
  call: async () => {
    const m = await import('./commands/call.js');
    return { run: m.callCommand, help: m.CALL_HELP };
  },
  approvals: async () => {
    const m = await import('./commands/approvals.js');
    return { run: m.approvalsCommand, help: m.APPROVALS_HELP };
  },
  audit: async () => {
    const m = await import('./commands/audit.js');
    return { run: m.auditCommand, help: m.AUDIT_HELP };
  },
  alerts: async () => {
    const m = await import('./commands/alerts.js');
    return { run: m.alertsCommand, help: m.ALERTS_HELP };
  },
  payees: async () => {
    const m = await import('./commands/payees.js');
    return { run: m.payeesCommand, help: m.PAYEES_HELP };
  },
  policy: async () => {
    const m = await import('./commands/policy.js');
    return { run: m.policyCommand, help: m.POLICY_HELP };
  },
  people: async () => {
    const m = await import('./commands/people.js');
    return { run: m.peopleCommand, help: m.PEOPLE_HELP };
  },
  sandbox: async () => {
    const m = await import('./commands/sandbox.js');
    return { run: m.sandboxCommand, help: m.SANDBOX_HELP };
  },
  mcp: async () => {
    const m = await import('./commands/mcp.js');
    return { run: m.mcpCommand, help: m.MCP_HELP };
  },
  db: async () => {
    const m = await import('./commands/db.js');
    return { run: m.dbCommand, help: m.DB_HELP };
  },
  config: async () => {
    const m = await import('./commands/config.js');
    return { run: m.configCommand, help: m.CONFIG_HELP };
  },
  completion: async () => {
    const m = await import('./commands/completion.js');
    return { run: m.completionCommand, help: m.COMPLETION_HELP };
  },
  login: async () => {
    const m = await import('./commands/login.js');
    return { run: m.loginCommand, help: m.LOGIN_HELP };
  },
  logout: async () => {
    const m = await import('./commands/login.js');
    return { run: m.logoutCommand, help: m.LOGOUT_HELP };
  },
  whoami: async () => {
    const m = await import('./commands/login.js');
    return { run: m.whoamiCommand, help: m.WHOAMI_HELP };
  },
  serve: async () => {
    const m = await import('./commands/serve.js');
    return { run: m.serveCommand, help: m.SERVE_HELP };
  },
};

/** The command of that name; only the table's own entries (`help constructor` names none). */
function commandNamed(name: string | undefined): (typeof COMMANDS)[CommandName] | undefined {
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined;
}

async function dispatch(argv: string[]): Promise<Status> {
  const [command, ...rest] = argv;
  const load = commandNamed(command);
  if (load !== undefined) return (await load()).run(rest);
  switch (command) {
    case undefined:
    case '--help':
    case '-h':
      out(HELP);
      return command === undefined ? EXIT.usage : EXIT.ok;
    case 'help':
      return (await import('./commands/help.js')).helpCommand(rest, {
        overview: HELP,
        topics: Object.keys(COMMANDS),
        helpOf: async (name) => {
          const load = commandNamed(name);
          return load === undefined ? undefined : (await load()).help;
        },
      });
    case '--version':
    case '-V':
      out(`${packageVersion()}\n`);
      return EXIT.ok;
    default: {
      const hint = didYouMean(command, Object.keys(COMMANDS));
      if (hint === '') throw new UsageError(`unknown command '${command}' (bankops help lists the commands)`);
      throw new UsageError(`unknown command '${command}'; ${hint} (bankops help lists the commands)`);
    }
  }
}

/**
 * Node's words for a bad option, tidied: its unknown-option message ends in an unbalanced quote
 * (`as in '-- "--x"`). A misspelt option gets the one meant, from the options the help lists.
 */
function argsProblem(error: Error & { code?: unknown }, help: string): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'(-{1,2}[^'\s]+)'/.exec(error.message)?.[1] ?? 'option';
    const known = [...new Set(help.match(/--[a-z][a-z-]*/g) ?? [])];
    const hint = option.startsWith('--') ? didYouMean(option, known) : '';
    return `unknown option ${option}${hint === '' ? '' : `; ${hint}`}`;
  }
  return error.message.replace(/'([^']+)'/g, '$1');
}

const USAGE = /^\s*(?:Usage:\s*)?(bankops .*)$/;

/**
 * The line of a command's help that fits what was typed: the subcommand's own usage line, else the
 * command's subcommands in one line (`bankops approvals list|show|approve|…`), else its first.
 */
export function usageLine(help: string, argv: readonly string[]): string {
  const lines = help
    .split('\n')
    .map((line) => USAGE.exec(line)?.[1])
    .filter((line) => line !== undefined);
  const [command = '', sub] = argv;
  const own = lines.find((line) => sub !== undefined && `${line} `.startsWith(`bankops ${command} ${sub} `));
  if (own !== undefined) return own;
  const subs = [
    ...new Set(
      lines
        .filter((line) => line.startsWith(`bankops ${command} `))
        .map((line) => line.split(' ')[2] ?? '')
        .filter((word) => /^[a-z]/.test(word)),
    ),
  ];
  if (subs.length > 1) return `bankops ${command} ${subs.join('|')} … (bankops help ${command})`;
  return lines[0] ?? `bankops help ${command}`;
}

/**
 * Runs the CLI on `io` (the process's streams and environment by default); resolves to the exit
 * status, or `'running'` for servers that keep the process alive.
 */
export function main(argv: string[], io: CliIo = processIo()): Promise<number | 'running'> {
  return withIo(io, async () => {
    try {
      const globals = globalOptions(argv);
      const chosen = await withContext({ ...io, verbose: globals.verbose }, globals.context);
      return await withIo(chosen, () => dispatch(globals.argv));
    } catch (error) {
      const coded = await asCliError(error, argv);
      // One line of error and one of usage: the whole help is a `bankops help <command>` away.
      const usage =
        coded instanceof UsageError && coded.help !== undefined
          ? `usage: ${usageLine(coded.help, argv)}\n`
          : '';
      err(`${errorLine(coded.message)}\n${usage}`);
      return exitCodeOf(coded.code);
    }
  });
}

/** What was thrown, as a coded error; Node's own (an unknown option, a port in use) in words. */
async function asCliError(error: unknown, argv: string[]): Promise<CodedError> {
  const nodeCode = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (error instanceof Error && nodeCode.startsWith('ERR_PARSE_ARGS')) {
    const load = commandNamed(argv[0]);
    const help = load === undefined ? HELP : (await load()).help;
    return usageError(
      `${argsProblem(error, help)}\n(bankops help${load === undefined ? '' : ` ${argv[0]}`} lists the options)`,
      error,
    );
  }
  if (nodeCode === 'EADDRINUSE') {
    const { address, port } = error as Error & { address?: string; port?: number };
    // Nothing started: exit 1, like any run that failed.
    return new CodedError({
      code: ErrorCode.NotSent,
      message: `${address ?? 'the address'}:${port ?? '?'} is already in use; choose another --port (0 picks a free one)`,
      original: error,
    });
  }
  return asCodedError(error);
}
