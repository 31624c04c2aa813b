import { CodedError, ErrorCode } from './errors.js';
import type { AnyTool } from './tool.js';

// Apart from the executor, so a front end can name these without loading the executor (and with
// it the service client) at start-up.

/** What a person is asked to confirm: the tool and its input, secrets already redacted. */
export interface WriteToConfirm {
  tool: AnyTool;
  input: Record<string, unknown>;
}

/**
 * The question is asked, the answer comes with a later call: thrown by a `confirm` callback and
 * passed through by `execute`, carrying what the person is to confirm.
 */
export class ConfirmationDeferred extends CodedError {
  constructor(readonly write: WriteToConfirm) {
    super({ code: ErrorCode.Deferred, message: `${write.tool.name} waits for the user to confirm it` });
    this.name = 'ConfirmationDeferred';
  }
}
