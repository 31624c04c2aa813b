import type { Failure } from '../core/results.js';

/** What a failure is, in words every front end can show: the service's message, then the facts. */
export interface FailureWords {
  /** `create_payout failed at the service: insufficient balance`. */
  headline: string;
  /** `HTTP 400`, `code 400`, `operation payouts.create`, `request id …`: what identifies the call. */
  facts: string[];
  /** Field-level problems the client found before sending. */
  issues: string[];
  /** What to do about it. */
  advice: string;
}

/** What to do after a failure of this kind; a write that may have happened says so. */
export function failureAdvice(kind: Failure['kind'], readOnly: boolean): string {
  switch (kind) {
    case 'timeout':
    case 'network':
      return readOnly
        ? 'The service did not answer; trying again later is safe.'
        : 'The service did not answer, so this may or may not have happened: check with a read before trying again.';
    case 'invalid_response':
      return 'The service answered in a form bankops does not understand; tell the bankops operators, with the request id.';
    case 'service':
      return 'The service refused the request: correct what its message names, or raise it with the service if it is not about the input.';
    case 'invalid_request':
      return 'Nothing was sent: correct the fields named and try again.';
    case 'not_sent':
      return 'Nothing was sent: a value could not be carried by the request; correct it and try again.';
    case 'insufficient_balance':
      return 'Nothing was sent: fund the account or ask for less, then try again.';
    case 'usage':
      return 'Nothing was done: correct what the message names and try again.';
    case 'outside_bound':
      return 'Nothing was sent: the fresh quote went back to the approvers, who decide on it again.';
    case 'deferred':
      return 'Nothing was done yet: it waits for the person to confirm it.';
    case 'not_configured':
      return 'Nothing was sent: this bankops is not set up for it; the operators set what the message names.';
    case 'internal':
      return 'Tell the bankops operators; the request id helps.';
  }
}

export function describeFailure(tool: { name: string; readOnly: boolean }, error: Failure): FailureWords {
  const facts = [
    error.httpStatus === undefined ? undefined : `HTTP ${error.httpStatus}`,
    error.code === undefined ? undefined : `code ${error.code}`,
    error.operation === undefined ? undefined : `operation ${error.operation}`,
    error.requestId === undefined ? undefined : `request id ${error.requestId}`,
  ].filter((fact) => fact !== undefined);
  const atService = ['service', 'timeout', 'network', 'invalid_response'].includes(error.kind);
  const where = atService ? `${tool.name} failed at the service` : `${tool.name} failed`;
  return {
    headline: `${where}: ${error.message}`,
    facts,
    issues: error.issues ?? [],
    advice: failureAdvice(error.kind, tool.readOnly),
  };
}
