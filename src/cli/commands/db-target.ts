import { CodedError, ErrorCode } from '../../core/errors.js';
import { EXIT, err, errorLine } from '../io.js';

/**
 * Runs `work`; a bankops error (an unreachable database, a refusal) is one line on stderr and exit
 * status 1, whatever its code: the command ran and did not do what was asked.
 */
export async function refusalsExitOne(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof CodedError) || error.code === ErrorCode.Usage) throw error;
    err(`${errorLine(error.message.split('\n')[0] ?? '')}\n`);
    return EXIT.failed;
  }
}
