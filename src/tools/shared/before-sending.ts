import { asCodedError, CodedError, ErrorCode } from '../../core/errors.js';
import { OutsideApprovedBoundError } from '../../core/tool.js';

/**
 * Runs what a tool reads before the call that moves money (the fresh quote, the wallet to debit).
 * Its failure is definite: nothing was sent, whatever the read met (a timeout, a 503), so the
 * approval ends `failed` ("nothing was sent") instead of "outcome unknown, look it up".
 */
export async function beforeSending<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OutsideApprovedBoundError) throw error;
    const coded = asCodedError(error);
    if (coded.code === ErrorCode.NotSent || coded.code === ErrorCode.InvalidRequest) throw error;
    const said =
      'serviceMessage' in coded && typeof coded.serviceMessage === 'string'
        ? coded.serviceMessage
        : coded.message;
    throw new CodedError({
      code: ErrorCode.NotSent,
      message: `${what} failed (${said}), so nothing was sent`,
      httpStatus: coded.httpStatus,
      serviceCode: coded.serviceCode,
      requestId: coded.requestId,
      operation: coded.operation,
      original: error,
    });
  }
}
