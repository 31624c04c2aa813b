import { CodedError, DATABASE_OPERATION, ErrorCode } from '../errors.js';
/** An entry handed to `AuditLog.append` breaks the entry schema; nothing was written. */
export class AuditInputError extends CodedError {
  constructor(issues: readonly string[]) {
    super({ code: ErrorCode.Internal, message: `audit entry refused: ${issues.join('; ')}`, issues });
    this.name = 'AuditInputError';
  }
}

/** A stored row cannot be read back as an entry (someone edited the table); run `verify`. */
export class AuditLogCorruptError extends CodedError {
  readonly seq: number;

  constructor(seq: number, problem: string) {
    super({
      code: ErrorCode.Internal,
      message: `audit log entry ${seq} is unreadable (${problem}); run \`bankops audit verify\``,
    });
    this.name = 'AuditLogCorruptError';
    this.seq = seq;
  }
}

/** A filter value that cannot be used (a date that does not parse, a limit below 1). */
export class AuditFilterError extends CodedError {
  constructor(message: string) {
    super({ code: ErrorCode.Usage, message: `audit filter: ${message}` });
    this.name = 'AuditFilterError';
  }
}

/**
 * The audit log's queue is full: the database has been away long enough that `waiting` entries
 * wait for it. A read is refused rather than run unrecorded; front ends say the database is away.
 */
export class AuditBacklogFullError extends CodedError {
  constructor(waiting: number) {
    super({
      code: ErrorCode.Unavailable,
      operation: DATABASE_OPERATION,
      message: `bankops cannot write its audit log (${waiting} entries wait for the database): reads are refused until they are written`,
    });
    this.name = 'AuditBacklogFullError';
  }
}
