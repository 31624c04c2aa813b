import { MAX_LIST_LIMIT } from '../../core/approvals/store.js';
import type { ApprovalFilter, ApprovalState, ApprovalView } from '../../core/approvals/types.js';
import type { Executor } from '../../core/executor.js';
import { optional } from '../../core/optional.js';

/**
 * Every approval in a state, newest first, page after page (one list holds at most 500), each page
 * starting after the last of the one before: one that changes state between two pages moves none
 * of the others out of view, and none is seen twice.
 */
export async function listAllApprovals(
  executor: Pick<Executor, 'listApprovals'>,
  state: ApprovalState,
): Promise<ApprovalView[]> {
  const found: ApprovalView[] = [];
  for (let after: ApprovalFilter['after']; ; ) {
    const page = await executor.listApprovals({ state, limit: MAX_LIST_LIMIT, ...optional('after', after) });
    found.push(...page);
    const last = page.at(-1);
    if (last === undefined || page.length < MAX_LIST_LIMIT) return found;
    after = { id: last.id, createdAt: last.createdAt };
  }
}
