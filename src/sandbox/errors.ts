/**
 * A failure the sandbox reports in the endpoint's envelope (`status: "error"`).
 * The spec reports failures with HTTP and envelope code 400, and the sandbox does so for every
 * rule, including unknown resource ids. It uses 401 for credential and token failures (the spec
 * does not show that failure), 404 for unknown paths and 405 for a wrong method; see docs/sandbox.md.
 */
export class SandboxError extends Error {
  readonly httpStatus: number;

  constructor(message: string, httpStatus = 400) {
    super(message);
    this.name = 'SandboxError';
    this.httpStatus = httpStatus;
  }
}

/** A request that breaks a rule of the spec; the message names the field or the rule. */
export const invalid = (message: string): SandboxError => new SandboxError(message, 400);
/** A missing, wrong or expired credential (API key, bearer token, identity of the caller). */
export const unauthorized = (message: string): SandboxError => new SandboxError(message, 401);
/** A resource id that names nothing the caller can see (reported with 400, as the spec's failures are). */
export const unknownResource = (kind: string, id: string): SandboxError =>
  new SandboxError(`${kind} '${id}' not found`, 400);
