import { executionsDocument } from '../../present/output/index.js';
import { withRuntime } from '../context.js';
import { EXIT, printJson } from '../io.js';
import { type OutputMode, printDocument } from '../output.js';

/**
 * `bankops approvals executing`: what is being executed now, by which process, and until when its
 * lease holds (a lease in the past: the next recovery of any process takes it over). JSON: the list.
 */
export function approvalsExecuting(mode: OutputMode): Promise<number> {
  return withRuntime(async (runtime) => {
    const executing = await runtime.executor.executingApprovals();
    if (mode.text)
      printDocument(
        (maxColumns) =>
          executionsDocument(executing, new Date(), { maxColumns, fullResult: '--json shows them' }),
        mode,
      );
    else printJson(executing);
    return EXIT.ok;
  });
}
