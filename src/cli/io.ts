import { AsyncScope } from '../core/async-scope.js';
import type { Clock } from '../core/clock.js';
import { CodedError, ErrorCode, messageOf } from '../core/errors.js';

/** Where a stream of the CLI's writes: a terminal says so and how wide it is. */
export interface CliStream {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

/** What a run of the CLI reads and writes besides its arguments: the process's, or a caller's. */
export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: Record<string, string | undefined>;
  /** The directory relative paths in the environment are taken from. */
  cwd: string;
  /** `--verbose`: say on stderr which database and service a command uses. */
  verbose?: boolean;
  /** The named context in force (`--context`, BANKOPS_CONTEXT), and the file it came from. */
  context?: { name: string; file: string };
  /** The approvals' clock (expiry, following sent money): real time unless a caller moves its own. */
  clock?: Clock;
}

const current = new AsyncScope<CliIo>();

/** The process's own streams and environment. */
export const processIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});

/** The streams and environment of the run in progress (the process's outside one). */
export const cliIo = (): CliIo => current.get() ?? processIo();

/** Runs `fn` with `io` as the run's streams and environment. */
export const withIo = <T>(io: CliIo, fn: () => T): T => current.run(io, fn);

/** Writes to the run's stdout. */
export const out = (text: string): void => {
  cliIo().stdout.write(text);
};

/** Writes to the run's stderr. */
export const err = (text: string): void => {
  cliIo().stderr.write(text);
};
/** Exit codes of `bankops call` and the approval commands (documented in README). */
/**
 * An error as the CLI says it, on one line: `bankops: <message>`, or the message alone when it
 * already speaks as bankops (`bankops cannot reach its database at …`).
 */
export const errorLine = (message: string): string =>
  message.startsWith('bankops ') ? message : `bankops: ${message}`;

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  invalid: 2,
  denied: 3,
  unfinished: 4,
  /** The vote must be confirmed with a passkey at the link printed (step-up). */
  stepUp: 5,
} as const;

/** The exit status of a run that ended in an error: from its code alone (README "Exit codes"). */
export function exitCodeOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.Usage:
    case ErrorCode.InvalidRequest:
    case ErrorCode.NotConfigured:
      return EXIT.usage;
    case ErrorCode.Deferred:
    case ErrorCode.OutsideBound:
      return EXIT.unfinished;
    case ErrorCode.Service:
    case ErrorCode.Timeout:
    case ErrorCode.Network:
    case ErrorCode.InvalidResponse:
    case ErrorCode.NotSent:
    case ErrorCode.InsufficientBalance:
    case ErrorCode.Unavailable:
    case ErrorCode.Internal:
      return EXIT.failed;
  }
}

export class UsageError extends CodedError {
  constructor(
    message: string,
    readonly help?: string,
  ) {
    super({ code: ErrorCode.Usage, message });
    this.name = 'UsageError';
  }
}

export const printJson = (value: unknown): void => {
  out(`${JSON.stringify(value, null, 2)}\n`);
};

/** A plain text table: columns padded to their widest cell, long cells cut. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  maxWidth = 60,
): string {
  const cut = (cell: string): string => (cell.length > maxWidth ? `${cell.slice(0, maxWidth - 1)}…` : cell);
  const cells = [headers, ...rows].map((row) => row.map(cut));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(cells[0] ?? []), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/** Parses `--input`: a JSON object, else a usage error naming the problem. */
export function parseJsonInput(text: string | undefined, flag = '--input'): unknown {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag} is not valid JSON: ${messageOf(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(
      `${flag} must be a JSON object of the tool's fields, like '{"accountId":"acc_usd_0001"}'`,
    );
  }
  return value;
}
