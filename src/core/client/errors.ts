import { CodedError, type ErrorCode, isRetryableStatus } from '../errors.js';

/**
 * What went wrong with a call to the service:
 * - `service`: the service answered with a failure envelope (`status: "error"`) or a non-2xx status;
 * - `timeout`: no complete answer in time (connect, headers or body);
 * - `network`: the connection failed (refused, reset, DNS);
 * - `invalid_response`: an answer arrived but is not what the spec says (bad JSON, wrong shape);
 * - `invalid_request`: the request was refused before it was sent (it breaks the spec's schema);
 * - `not_sent`: the request could not be sent at all (a header or path value no HTTP can carry).
 */
export type ServiceErrorKind = Extract<
  ErrorCode,
  'service' | 'timeout' | 'network' | 'invalid_response' | 'invalid_request' | 'not_sent'
>;

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  operation: string;
  message: string;
  requestId?: string | undefined;
  httpStatus?: number | undefined;
  code?: number | undefined;
  /** Field-level problems, for `invalid_request` (`bank.routingCodeType: must be equal to "ach"`). */
  issues?: readonly string[] | undefined;
  /** The service's `Retry-After` header, if it sent one. */
  retryAfter?: string | undefined;
  /** How many times the request was sent (a read is sent again on 5xx, 429, timeouts). */
  attempts?: number | undefined;
  /** Milliseconds from the first attempt to giving up. */
  elapsedMs?: number | undefined;
  cause?: unknown;
}

/** The one error type of the service client, a coded error. Its message never contains credentials. */
export class ServiceError extends CodedError {
  readonly kind: ServiceErrorKind;
  declare readonly operation: string;
  /** The service's own message (or ours, for timeouts and network failures). */
  readonly serviceMessage: string;
  readonly retryAfter: string | undefined;
  readonly attempts: number;
  readonly elapsedMs: number | undefined;

  constructor(init: ServiceErrorInit) {
    const where = [
      init.httpStatus === undefined ? undefined : `HTTP ${init.httpStatus}`,
      init.requestId === undefined ? undefined : `request ${init.requestId}`,
    ].filter((part) => part !== undefined);
    super({
      code: init.kind,
      message: `${init.operation}: ${init.message}${where.length > 0 ? ` (${where.join(', ')})` : ''}`,
      httpStatus: init.httpStatus,
      serviceCode: init.code,
      requestId: init.requestId,
      operation: init.operation,
      issues: init.issues,
      original: init.cause,
    });
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.serviceMessage = init.message;
    this.retryAfter = init.retryAfter;
    this.attempts = init.attempts ?? 1;
    this.elapsedMs = init.elapsedMs;
  }

  /** The same failure, saying how many times it was sent and for how long before giving up. */
  tried(attempts: number, elapsedMs: number): ServiceError {
    return new ServiceError({
      kind: this.kind,
      operation: this.operation,
      message: this.serviceMessage,
      requestId: this.requestId,
      httpStatus: this.httpStatus,
      code: this.serviceCode,
      issues: this.issues,
      retryAfter: this.retryAfter,
      attempts,
      elapsedMs,
      cause: this.original,
    });
  }

  /** True when sending the same request again may succeed (timeouts, network errors, 5xx, 429). */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network') return true;
    return this.kind === 'service' && isRetryableStatus(this.httpStatus);
  }
}

export const isServiceError = (error: unknown): error is ServiceError => error instanceof ServiceError;
