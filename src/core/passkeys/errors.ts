import { CodedError, ErrorCode } from '../errors.js';

/** The HTTP statuses the passkey pages answer a refusal with. */
export type PasskeyStatus = 400 | 403 | 404 | 409 | 410 | 503;

/**
 * Why a passkey page or link cannot go on, in words for the person in front of it: `usage` (a link
 * that is not valid, used, expired, an approval no longer waiting), or `not_configured` (503: this
 * bankops has no public URL passkeys can work at). `status` is the HTTP status the pages answer
 * with. The message never holds a token.
 */
export class PasskeyError extends CodedError {
  constructor(
    readonly status: PasskeyStatus,
    message: string,
  ) {
    super({
      code: status === 503 ? ErrorCode.NotConfigured : ErrorCode.Usage,
      message,
      httpStatus: status,
    });
    this.name = 'PasskeyError';
  }
}
