import { didYouMean } from '../../present/suggest.js';
import { UsageError } from '../io.js';

/**
 * The commands of `bankops`, once: the overview `bankops --help` prints, the words completions offer
 * after each one (bash, zsh, fish), and the names `bankops help` and "did you mean" know. Each
 * command's own help is the reference for its usage: test/cli/command-table.test.ts holds every
 * entry to it (its subcommands and options). Nothing here loads a command: `--help` stays cheap.
 */
export interface CommandEntry {
  /**
   * The overview's lines: what follows `bankops <name>` (`{subcommands}` stands for the
   * subcommands joined by `|`), and what it does, in a few words.
   */
  overview: readonly (readonly [usage: string, what: string])[];
  /** The words that may follow the command: its subcommands, or the shells of `completion`. */
  subcommands?: readonly string[];
  /** Its options, as its help lists them. */
  options?: readonly string[];
}

const TOOLS_OPTIONS = ['--toolsets', '--toolset', '--read-only', '--json'];
const SERVER_OPTIONS = ['--toolsets', '--read-only', '--no-confirm', '--secret-inputs'];

export const COMMAND_TABLE = {
  tools: {
    overview: [['[--toolsets <a,b>] [--read-only] [--json]', 'list the tools']],
    options: TOOLS_OPTIONS,
  },
  call: {
    overview: [['<tool> [key=value ...] [--as <name>]', 'run a tool (policy, approvals, audit)']],
    options: ['--input', '--as', '--idempotency-key', '--json', '--help'],
  },
  approvals: {
    overview: [
      ['list|show|watch|executing|approve|reject|cancel', 'decide on approvals'],
      ['reconcile|ask-again|break-glass|review', 'settle them, ask again, break the glass'],
    ],
    subcommands: [
      'list',
      'show',
      'watch',
      'executing',
      'approve',
      'reject',
      'cancel',
      'reconcile',
      'ask-again',
      'break-glass',
      'review',
    ],
    options: [
      '--state',
      '--limit',
      '--json',
      '--as',
      '--reason',
      '--sent',
      '--not-sent',
      '--retry',
      '--request-id',
      '--interval',
      '--close',
    ],
  },
  audit: {
    overview: [['{subcommands}', 'read and check the audit log']],
    subcommands: ['tail', 'verify', 'export'],
    options: ['-n', '--json', '--anchor', '--signatures', '--since', '--tool', '--actor'],
  },
  alerts: {
    overview: [['{subcommands}', 'balance alerts posted to Slack']],
    subcommands: ['add', 'list', 'remove'],
    options: ['--channel', '--as', '--json'],
  },
  payees: {
    overview: [['{subcommands}', 'name payees, record call-backs']],
    subcommands: ['name', 'verify'],
    options: ['--method', '--contact', '--note', '--as', '--json'],
  },
  policy: {
    overview: [['{subcommands}', "the policy's versions and changes"]],
    subcommands: ['show', 'history', 'diff', 'propose', 'recover'],
    options: ['--version', '--json', '--reason', '--as'],
  },
  people: {
    overview: [['{subcommands}', "people's passkeys, for step-up approvals"]],
    subcommands: ['enroll', 'passkeys', 'revoke-passkey'],
    options: ['--as', '--json'],
  },
  sandbox: {
    overview: [
      ['[--port <port>]', 'serve the sandbox of the service'],
      ['{subcommands}', 'drive the sandbox in use'],
    ],
    subcommands: ['status', 'reset', 'clock', 'faults', 'rates'],
    options: ['--port', '--verbose', '--json'],
  },
  mcp: {
    overview: [['[--toolsets <a,b>] [--read-only]', 'serve MCP on stdio to an assistant']],
    options: SERVER_OPTIONS,
  },
  serve: {
    overview: [['[--port <port>] [--read-only]', 'serve MCP over HTTP, Slack, events']],
    options: [
      '--port',
      '--host',
      '--allow-remote',
      ...SERVER_OPTIONS,
      '--allowed-origin',
      '--allowed-host',
      '--no-try',
    ],
  },
  db: {
    overview: [
      ['migrate [--url <postgres://…>]', 'bring the database to this schema'],
      ['copy --to <postgres://…>', 'move the SQLite data to PostgreSQL'],
      ['backup <file> [--force]', 'a consistent copy of the database'],
      ['fingerprint-key --adopt', 'rotate the fingerprint key on purpose'],
    ],
    subcommands: ['migrate', 'copy', 'backup', 'fingerprint-key'],
    options: ['--url', '--grant', '--print-grants', '--to', '--force', '--adopt'],
  },
  config: {
    overview: [['check', 'the configuration in force, and gaps']],
    subcommands: ['check'],
    options: ['--json', '--context'],
  },
  login: {
    overview: [['', 'sign in at the identity provider']],
    options: ['--context'],
  },
  logout: {
    overview: [['', 'forget the sign-in']],
  },
  whoami: {
    overview: [['[--json]', 'who the CLI acts as']],
    options: ['--json'],
  },
  completion: {
    overview: [['{subcommands}', 'a shell completion script']],
    subcommands: ['bash', 'zsh', 'fish'],
  },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMAND_TABLE;

/** The commands in the table's order. */
export const COMMAND_NAMES = Object.keys(COMMAND_TABLE) as CommandName[];

/** The entry of a command, widened to the interface (optional fields read as such). */
export const commandEntry = (name: CommandName): CommandEntry => COMMAND_TABLE[name];

/** `bankops <name> <usage>` for each overview line, `{subcommands}` written out. */
export function overviewLines(): [usage: string, what: string][] {
  return COMMAND_NAMES.flatMap((name) => {
    const entry = commandEntry(name);
    return entry.overview.map(([usage, what]): [string, string] => [
      `bankops ${name} ${usage.replace('{subcommands}', (entry.subcommands ?? []).join('|'))}`.trimEnd(),
      what,
    ]);
  });
}

/** The usage error for a subcommand `name` does not have, naming the one meant, with its help. */
export function unknownSubcommand(name: CommandName, sub: string, help: string): UsageError {
  const hint = didYouMean(sub, commandEntry(name).subcommands ?? []);
  return new UsageError(`unknown ${name} command '${sub}'${hint === '' ? '' : `; ${hint}`}`, help);
}

/** Refuses a subcommand the table does not give `name` (`unknownSubcommand`). */
export function checkSubcommand(name: CommandName, sub: string, help: string): void {
  if (!(commandEntry(name).subcommands ?? []).includes(sub)) throw unknownSubcommand(name, sub, help);
}
