import { CodedError, ErrorCode } from '../errors.js';
/** A policy file that cannot be used. `issues` are `path: problem` lines (`rules[2].approval.approvers: ...`). */
export class PolicyError extends CodedError {
  readonly source: string;

  constructor(source: string, issues: readonly string[], options?: { cause?: unknown }) {
    super({
      code: ErrorCode.NotConfigured,
      message: `policy ${source} is invalid: ${issues.join('; ')}`,
      issues,
      original: options?.cause,
    });
    this.name = 'PolicyError';
    this.source = source;
  }
}

export const isPolicyError = (error: unknown): error is PolicyError => error instanceof PolicyError;
