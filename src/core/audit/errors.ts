/** An entry handed to `AuditLog.append` breaks the entry schema; nothing was written. */
export class AuditInputError extends Error {
  readonly issues: readonly string[];

  constructor(issues: readonly string[]) {
    super(`audit entry refused: ${issues.join('; ')}`);
    this.name = 'AuditInputError';
    this.issues = issues;
  }
}

/** A stored row cannot be read back as an entry (someone edited the table); run `verify`. */
export class AuditLogCorruptError extends Error {
  readonly seq: number;

  constructor(seq: number, problem: string) {
    super(`audit log entry ${seq} is unreadable (${problem}); run \`bankops audit verify\``);
    this.name = 'AuditLogCorruptError';
    this.seq = seq;
  }
}

/** A filter value that cannot be used (a date that does not parse, a limit below 1). */
export class AuditFilterError extends RangeError {
  constructor(message: string) {
    super(`audit filter: ${message}`);
    this.name = 'AuditFilterError';
  }
}
