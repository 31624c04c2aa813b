import { CodedError, ErrorCode } from '../errors.js';
import { optional } from '../optional.js';
import { AuditInputError } from './errors.js';

/** An error as it crosses between threads: what callers look at (its class, code and words). */
export interface WireError {
  name: string;
  message: string;
  /** A system or SQLite error's code (`ECONNREFUSED`, `SQLITE_BUSY`). */
  code?: string;
  coded?: {
    code: ErrorCode;
    operation?: string;
    httpStatus?: number;
    issues: readonly string[];
  };
}

export function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  const wire: WireError = { name: error.name, message: error.message };
  if (error instanceof CodedError) {
    wire.coded = {
      code: error.code,
      issues: [...error.issues],
      ...optional('operation', error.operation),
      ...optional('httpStatus', error.httpStatus),
    };
  } else if (typeof code === 'string') wire.code = code;
  return wire;
}

/** The error again, of the class its catchers test for (`AuditInputError`, `CodedError`). */
export function fromWire(wire: WireError): Error {
  if (wire.name === 'AuditInputError' && wire.coded !== undefined)
    return new AuditInputError(wire.coded.issues);
  if (wire.coded !== undefined) {
    const { code, operation, httpStatus, issues } = wire.coded;
    const error = new CodedError({ code, message: wire.message, operation, httpStatus, issues });
    error.name = wire.name;
    return error;
  }
  // A driver's or the system's error (`SQLITE_BUSY`, `ECONNREFUSED`) is a failure of bankops here:
  // its words and name kept, its own code kept as the cause, which the log writes beside it.
  const error = new CodedError({ code: ErrorCode.Internal, message: wire.message, original: wire.code });
  error.name = wire.name;
  return error;
}
