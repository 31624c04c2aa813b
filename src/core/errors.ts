/**
 * One coded error model for the whole core (after bolt-js's `ErrorCode` + `CodedError` +
 * `asCodedError`): every failure a front end can see carries one of these codes, and front ends
 * derive their wording (src/present), exit codes (CLI) and `isError` texts (MCP) from the code alone.
 */
export const ErrorCode = {
  /** The service answered with a failure (its envelope's `status: error`, or a non-2xx status). */
  Service: 'service',
  /** No complete answer in time: the service may have acted. */
  Timeout: 'timeout',
  /** The connection failed after it may have been made: the service may have acted. */
  Network: 'network',
  /** An answer arrived but is not what the spec says: the service may have acted. */
  InvalidResponse: 'invalid_response',
  /** Refused before sending because it breaks the service's schema: the caller's to fix. */
  InvalidRequest: 'invalid_request',
  /** Failed before anything left this process (a value that cannot be sent): nothing happened. */
  NotSent: 'not_sent',
  /** The source balance cannot cover the debit: refused before anyone votes, and at each vote. */
  InsufficientBalance: 'insufficient_balance',
  /**
   * What was asked cannot be read, or names nothing that exists (arguments, an input value, an
   * approval id): the caller's to fix; nothing happened.
   */
  Usage: 'usage',
  /** A fresh quote is worse than the approved bound: back to the approvers; nothing was sent. */
  OutsideBound: 'outside_bound',
  /** A person's confirmation is still awaited (an MCP client's form): nothing happened yet. */
  Deferred: 'deferred',
  /** This bankops is not set up for it (a setting is missing): the operator's to fix; nothing happened. */
  NotConfigured: 'not_configured',
  /**
   * bankops cannot reach its own database (a server down, a connection cut, the audit log's queue
   * full while it is away): nothing bankops would have recorded happened; trying again once it is
   * back is safe. Front ends say it in one voice (`present/failure.ts`), never with its address.
   */
  Unavailable: 'unavailable',
  /** A failure of bankops itself. */
  Internal: 'internal',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export const ERROR_CODES = Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]];

export interface CodedErrorInit {
  code: ErrorCode;
  message: string;
  httpStatus?: number | undefined;
  /** The service's envelope `code`. */
  serviceCode?: number | undefined;
  requestId?: string | undefined;
  operation?: string | undefined;
  /** Field-level problems (`bank.routingCodeType: must be equal to "ach"`). */
  issues?: readonly string[] | undefined;
  /** What was thrown in the first place, when this wraps it. */
  original?: unknown;
}

/** An error with a code front ends act on, keeping what caused it. */
export class CodedError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number | undefined;
  readonly serviceCode: number | undefined;
  readonly requestId: string | undefined;
  readonly operation: string | undefined;
  readonly issues: readonly string[];
  readonly original: unknown;

  constructor(init: CodedErrorInit) {
    super(init.message, init.original === undefined ? undefined : { cause: init.original });
    this.name = 'CodedError';
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.serviceCode = init.serviceCode;
    this.requestId = init.requestId;
    this.operation = init.operation;
    this.issues = init.issues ?? [];
    this.original = init.original;
  }
}

/** A failure of bankops itself (a broken invariant, an answer that cannot be): `internal`. */
export const internalError = (message: string, original?: unknown): CodedError =>
  new CodedError({ code: ErrorCode.Internal, message, original });

/** What was asked cannot be read or names nothing that exists: `usage`, the caller's to fix. */
export const usageError = (message: string, original?: unknown): CodedError =>
  new CodedError({ code: ErrorCode.Usage, message, original });

/** A setting this needs is missing or wrong: `not_configured`, the operator's to fix. */
export const notConfigured = (message: string, original?: unknown): CodedError =>
  new CodedError({ code: ErrorCode.NotConfigured, message, original });

/** The `operation` an `unavailable` error names in the log: bankops's own database. */
export const DATABASE_OPERATION = 'database';

/**
 * Whether this failure, or one it wraps, is "bankops cannot reach its database" (`unavailable`):
 * a wrapper that adds words of its own (a vote that may have counted) keeps it as its cause.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause !== undefined && depth < 8; depth++) {
    if (cause instanceof CodedError && cause.code === ErrorCode.Unavailable) return true;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return false;
}

/** The message of whatever was thrown (an `Error`'s message, anything else as text). */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** At a boundary: whatever was thrown, as a coded error (unknown errors are `internal`). */
export function asCodedError(error: unknown): CodedError {
  if (error instanceof CodedError) return error;
  return new CodedError({ code: ErrorCode.Internal, message: messageOf(error), original: error });
}

/** The statuses worth sending the same request again for: too many requests, or the service failing. */
export const isRetryableStatus = (httpStatus: number | undefined): boolean =>
  httpStatus === 429 || (httpStatus !== undefined && httpStatus >= 500);

/**
 * True when a failed call may have acted at the service, or may succeed if sent again: no answer
 * (timeout, network), an answer we could not read, a 5xx, a 429. A money movement that ends so is
 * not `failed`: that would invite a second payment for money that may already have left. It is sent
 * again with the same request id, which the service deduplicates.
 */
export function outcomeUnknown(failure: { kind: ErrorCode; httpStatus?: number | undefined }): boolean {
  switch (failure.kind) {
    case ErrorCode.Timeout:
    case ErrorCode.Network:
    case ErrorCode.InvalidResponse:
      return true;
    case ErrorCode.Service:
      return isRetryableStatus(failure.httpStatus);
    case ErrorCode.InvalidRequest:
    case ErrorCode.NotSent:
    case ErrorCode.InsufficientBalance:
    case ErrorCode.Usage:
    case ErrorCode.OutsideBound:
    case ErrorCode.Deferred:
    case ErrorCode.NotConfigured:
    case ErrorCode.Unavailable:
    case ErrorCode.Internal:
      return false;
  }
}
