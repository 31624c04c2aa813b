import { optional } from './optional.js';
/**
 * Structured logs, one JSON object per line on stderr (stdout belongs to command output and to the
 * MCP protocol on stdio). Callers pass already-redacted fields; messages never carry secrets.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** An error as a log writes it: what it is, its code when it has one, where it came from, its cause. */
export interface LoggedError {
  name: string;
  code?: string;
  message: string;
  stack?: string;
  cause?: LoggedError | string;
}

/** Causes deeper than this are cut (a cycle of causes must not loop). */
const CAUSE_DEPTH = 4;

function loggedError(error: unknown, depth = 0): LoggedError | string {
  if (!(error instanceof Error)) return typeof error === 'string' ? error : String(error);
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: error.message,
    ...optional('stack', error.stack),
    ...(error.cause === undefined || depth >= CAUSE_DEPTH
      ? {}
      : { cause: loggedError(error.cause, depth + 1) }),
  };
}

/** Fields as written: an `Error` anywhere at the top becomes `{name, code, message, stack, cause}`. */
const written = (fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
  if (fields === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields))
    out[key] = value instanceof Error ? loggedError(value) : value;
  return out;
};

export function createLogger(
  level: LogLevel = 'info',
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const emit = (at: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (ORDER[at] < ORDER[level]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: at, message, ...written(fields) })}\n`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
