import { CodedError, ErrorCode } from '../core/errors.js';

/** What the stand-in answers instead of doing a Web API call: Slack's error string (`not_found`). */
export class SlackRefusal extends CodedError {
  constructor(readonly error: string) {
    super({ code: ErrorCode.Usage, message: `Slack would refuse this call: ${error}` });
    this.name = 'SlackRefusal';
  }
}
