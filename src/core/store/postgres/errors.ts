import pg from 'pg';
import { CodedError, DATABASE_OPERATION, ErrorCode, messageOf } from '../../errors.js';

/**
 * The SQLSTATE of an error the server sent (`40001`), or undefined for anything else: a socket
 * error's code (`EPIPE`) has five capitals too, and means the server may never have answered.
 */
export function sqlState(error: unknown): string | undefined {
  return error instanceof pg.DatabaseError ? error.code : undefined;
}

/** Node's system error code (`ECONNREFUSED`), or undefined. */
function systemCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
}

/**
 * Failures after which the same transaction, run again from the start, may succeed: a serialization
 * failure, a deadlock, the server shutting the session down, a connection reset or cut. The
 * transaction rolled back (or never committed), so running it again cannot apply it twice. A
 * connection lost while COMMIT was in flight is the exception: see `withTransaction`.
 */
export function isTransient(error: unknown): boolean {
  switch (sqlState(error)) {
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
    case '57P01': // admin_shutdown (the server or an operator ended the session)
    case '57P02': // crash_shutdown
    case '57P03': // cannot_connect_now (starting up or shutting down)
    case '08000':
    case '08003':
    case '08006': // connection_exception family
      return true;
    default:
      break;
  }
  if (isUnreachable(error)) return true;
  const message = messageOf(error);
  return /Connection terminated|connection terminated|Client has encountered a connection error/.test(
    message,
  );
}

/**
 * No answer came to a statement within the pool's query timeout (`PgPoolOptions.queryTimeoutMs`):
 * the server or the network between stopped answering. The connection is stuck behind that
 * statement and must be dropped, not rolled back.
 */
export function isNoAnswer(error: unknown): boolean {
  return /^Query read timeout$/.test(messageOf(error));
}

/** Failures that mean the server could not be reached, or stopped answering. */
export function isUnreachable(error: unknown): boolean {
  if (isNoAnswer(error)) return true;
  switch (systemCode(error)) {
    case 'ECONNREFUSED':
    case 'ECONNRESET':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
    case 'EPIPE':
      return true;
    default:
      // The last: node-postgres's pool, every connection busy (stuck behind statements the server
      // does not answer) and none free within the connection timeout.
      return /timeout expired|Connection terminated due to connection timeout|^timeout exceeded when trying to connect$/.test(
        messageOf(error),
      );
  }
}

/** The server answered, but will not let this URL in: no such database, a wrong password, a role not allowed. */
export function isLoginRefused(error: unknown): boolean {
  const state = sqlState(error);
  return state === '3D000' || state === '28P01' || state === '28000';
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  '3D000': 'no such database',
  '28P01': 'password refused',
  '28000': 'not allowed to connect',
  '57P03': 'the server is starting or stopping',
};

function reasonOf(cause: unknown): string {
  const code = systemCode(cause) ?? sqlState(cause);
  const known = code === undefined ? undefined : REASONS[code];
  if (known !== undefined) return known;
  if (/timeout/i.test(messageOf(cause))) return 'timed out';
  return messageOf(cause).split('\n')[0] ?? 'unknown error';
}

/**
 * `bankops cannot reach its database at db.internal:5432/bankops (connection refused)`: one line
 * that names the database (never its password), with the cause kept for the log.
 */
export function databaseUnreachable(where: string, cause: unknown): CodedError {
  const why = reasonOf(cause);
  return new CodedError({
    code: ErrorCode.Unavailable,
    message: `bankops cannot reach its database at ${where} (${why})`,
    operation: DATABASE_OPERATION,
    original: cause,
  });
}
