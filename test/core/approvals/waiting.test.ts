import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Approval } from '../../../src/core/approvals/approval.js';
import { approvalRow } from '../../helpers/approval-rows.js';
import { manualClock } from '../../helpers/clock.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

// The reminders' poll (`waitingApprovals`) and the paged list behind it, past one list's limit
// (500): every pending approval is there, the oldest first, each with its attempt and when that
// attempt began. The rows are written straight to the real SQLite file (opening 600 approvals
// through the service would only make the test slow).

const clock = manualClock('2026-11-26T09:00:00Z');
let core: TestCore;
beforeAll(async () => {
  core = await createTestCore({ clock });
});
afterAll(async () => {
  await core?.close();
});

const T0 = '2026-11-26T08:00:00Z';
const at = (seconds: number): string => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const row = (n: number, changes: Partial<Approval> = {}): Approval => approvalRow(n, T0, changes);

describe('the pending approvals the reminders look at', () => {
  it('are all of them, oldest first, past one list of 500, each with its attempt and its start', async () => {
    const count = 620;
    await core.runtime.storage.transaction(async (tx) => {
      for (let n = 0; n < count; n += 1)
        await tx.approvals.insert(
          // The oldest went back to the approvers with a new quote at 08:30: attempt 2.
          n === 0 ? row(n, { attempt: 2, requestId: 'apr_w0000-2', updatedAt: at(1800) }) : row(n),
        );
    });
    const waiting = await core.executor.waitingApprovals();
    expect(waiting).toHaveLength(count);
    expect(new Set(waiting.map((w) => w.id)).size).toBe(count);
    expect(waiting[0]).toMatchObject({
      id: 'apr_w0000',
      attempt: 2,
      createdAt: at(0),
      attemptStartedAt: at(1800),
    });
    expect(waiting[1]).toMatchObject({ id: 'apr_w0001', attempt: 1, attemptStartedAt: at(1) });
    expect(waiting.at(-1)?.id).toBe(`apr_w0${count - 1}`);

    // The list behind it pages: newest first, the second page, after the first's last, holding the oldest.
    const first = await core.executor.listApprovals({ state: 'pending', limit: 500 });
    const last = first.at(-1);
    const second = await core.executor.listApprovals({
      state: 'pending',
      limit: 500,
      ...(last === undefined ? {} : { after: { id: last.id, createdAt: last.createdAt } }),
    });
    expect(first).toHaveLength(500);
    expect(second).toHaveLength(count - 500);
    expect(second.at(-1)?.id).toBe('apr_w0000');
    expect(new Set([...first, ...second].map((v) => v.id)).size).toBe(count);
  });
});
