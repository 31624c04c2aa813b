/** A policy file that cannot be used. `issues` are `path: problem` lines (`rules[2].approval.approvers: ...`). */
export class PolicyError extends Error {
  readonly source: string;
  readonly issues: readonly string[];

  constructor(source: string, issues: readonly string[], options?: { cause?: unknown }) {
    super(`policy ${source} is invalid: ${issues.join('; ')}`, options);
    this.name = 'PolicyError';
    this.source = source;
    this.issues = issues;
  }
}

export const isPolicyError = (error: unknown): error is PolicyError => error instanceof PolicyError;
