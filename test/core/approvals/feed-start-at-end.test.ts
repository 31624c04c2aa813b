import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../../src/app/runtime.js';
import type { ApprovalEvent } from '../../../src/core/approvals/index.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, runtimeOptions, type TestCore, testConfig } from '../../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());

describe('a consumer that starts at the end of the feed', () => {
  it('gets, after a restart, the events it never managed to handle before', async () => {
    // Some history before the consumer exists: it asks to start at the end.
    pending(await core.call('create_payout', { ...PAYOUT, amount: 11 }));

    // First run of the Slack consumer: Slack is down, every event fails for now.
    const first = core.executor.followApprovals({
      consumer: 'slack',
      startAt: 'end',
      retryMs: 60_000,
      handle: async () => {
        throw new Error('slack is unreachable');
      },
    });
    const missed = pending(await core.call('create_payout', { ...PAYOUT, amount: 12 }));
    await first.drain();
    await first.stop();

    // The process restarts (another runtime on the same file); Slack is back.
    const restarted = await createRuntime(
      testConfig(core.sandbox, { dbPath: core.dbPath }),
      runtimeOptions(),
    );
    try {
      const seen: ApprovalEvent[] = [];
      const second = restarted.executor.followApprovals({
        consumer: 'slack',
        startAt: 'end',
        handle: async (event) => {
          seen.push(event);
        },
      });
      await second.drain();
      await second.stop();
      expect(seen.map((e) => [e.approvalId, e.kind])).toContainEqual([missed.id, 'opened']);
    } finally {
      await restarted.close();
    }
  });
});
