import { CodedError, ErrorCode } from './errors.js';
/**
 * Thrown by a tool when its input is well-formed but names something that does not exist in
 * bankops itself (an approval id, say): the caller's to fix, reported as `invalid` on that field,
 * not as a failure of bankops.
 */
export class InputError extends CodedError {
  readonly path: string;

  constructor(path: string, message: string) {
    super({ code: ErrorCode.Usage, message });
    this.name = 'InputError';
    this.path = path;
  }
}
