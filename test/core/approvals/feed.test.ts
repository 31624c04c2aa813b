import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalEvent } from '../../../src/core/approvals/types.js';
import { PAYOUT, pending, until } from '../../helpers/approvals.js';
import { runCli } from '../../helpers/cli.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());

const FEED_CHILD = fileURLToPath(new URL('../../helpers/feed-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A feed consumer in another process; its lines so far, parsed. */
function consumerProcess(consumer: string): { child: ChildProcess; lines: () => Record<string, unknown>[] } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', FEED_CHILD, core.dbPath, core.sandbox.url, consumer],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const lines = () =>
    out
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, lines };
}

const events = (from = 0): Promise<ApprovalEvent[]> => core.runtime.approvals.feed.after(from, 1000);

describe('the approval change feed', () => {
  it('records every change of an approval, in order, in the transaction of the change', async () => {
    const start = await core.runtime.approvals.feed.head();
    const big = { ...PAYOUT, beneficiaryId: 'ben_us_ach_0001', destinationRail: 'ACH', amount: 50_000 };
    const { id } = pending(await core.call('create_payout', big));
    await core.executor.approve(id, core.approver);
    await core.executor.approve(id, core.approver2);
    const rejected = pending(await core.call('create_payout', PAYOUT));
    await core.executor.reject(rejected.id, core.approver, 'wrong payee');
    const cancelled = pending(await core.call('create_payout', { ...PAYOUT, amount: 10 }));
    await core.executor.cancel(cancelled.id, core.operator);

    const seen = (await events(start)).map((e) => [
      e.approvalId === id ? 'big' : e.approvalId === rejected.id ? 'rej' : 'can',
      e.kind,
      e.state,
      e.actor ?? '',
    ]);
    expect(seen).toEqual([
      ['big', 'opened', 'pending', 'cli:operator'],
      ['big', 'voted', 'pending', 'cli:approver'],
      ['big', 'voted', 'executing', 'cli:approver2'],
      ['big', 'executing', 'executing', 'cli:approver2'],
      ['big', 'succeeded', 'succeeded', ''],
      ['rej', 'opened', 'pending', 'cli:operator'],
      ['rej', 'rejected', 'rejected', 'cli:approver'],
      ['can', 'opened', 'pending', 'cli:operator'],
      ['can', 'cancelled', 'cancelled', 'cli:operator'],
    ]);
    expect((await events(start)).find((e) => e.kind === 'rejected')?.detail).toBe('wrong payee');
    const seqs = (await events(start)).map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('hands a consumer each event in order, again after its handler failed, and resumes where it stopped', async () => {
    const handled: number[] = [];
    let failOnce = true;
    const follower = core.executor.followApprovals({
      consumer: 'test-resume',
      retryMs: 10,
      handle: async (event) => {
        if (failOnce && handled.length === 1) {
          failOnce = false;
          throw new Error('a front end that is down for a moment');
        }
        handled.push(event.seq);
      },
    });
    await until(async () => {
      await follower.drain();
      return follower.position === (await core.runtime.approvals.feed.head());
    }, 'the follower to catch up');
    await follower.stop();
    expect(handled).toEqual((await events(0)).map((e) => e.seq));

    // A new follower under the same name (a restarted process) starts after what was handled.
    const { id } = pending(await core.call('create_payout', { ...PAYOUT, amount: 11 }));
    const later: ApprovalEvent[] = [];
    const again = core.executor.followApprovals({
      consumer: 'test-resume',
      handle: async (e) => void later.push(e),
    });
    await until(async () => {
      await again.drain();
      return later.length > 0;
    }, 'the restarted follower');
    await again.stop();
    expect(later.map((e) => [e.approvalId, e.kind])).toEqual([[id, 'opened']]);
  });

  it('reaches a consumer in another process within a second, and one killed mid-way resumes with nothing lost', async () => {
    const first = consumerProcess('other-process');
    await until(() => first.lines().some((l) => l.ready === true), 'the consumer process to start', 15_000);
    const { id } = pending(await core.call('create_payout', { ...PAYOUT, amount: 12 }));
    const opened = Date.now();
    await until(
      () => first.lines().some((l) => l.id === id && l.kind === 'opened'),
      'the event in the other process',
      5_000,
    );
    expect(Date.now() - opened).toBeLessThan(1_500);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const before = first.lines().filter((l) => l.seq !== undefined);

    // Changes while it is down, then a restart under the same consumer name.
    await core.executor.cancel(id, core.operator);
    const second = pending(await core.call('create_payout', { ...PAYOUT, amount: 13 }));
    const restarted = consumerProcess('other-process');
    await until(
      () => restarted.lines().some((l) => l.id === second.id),
      'the restarted consumer to catch up',
      15_000,
    );
    restarted.child.kill('SIGKILL');
    const after = restarted.lines().filter((l) => l.seq !== undefined);
    // At least once, in order: everything the feed holds was handled, the restart picking up where
    // the killed process left (an event handled just before the kill may come twice, never none).
    const all = (await events(0)).map((e) => e.seq);
    const handled = [...new Set([...before, ...after].map((l) => Number(l.seq)))].sort((a, b) => a - b);
    expect(handled).toEqual(all);
    const resumedAt = Number(after[0]?.seq);
    expect(resumedAt).toBeLessThanOrEqual(Number(before.at(-1)?.seq) + 1);
    expect(after.map((l) => Number(l.seq))).toEqual(
      [...after.map((l) => Number(l.seq))].sort((a, b) => a - b),
    );
  });

  it('carries an approval opened by `bankops call` in another process to a follower here', async () => {
    const seen: ApprovalEvent[] = [];
    const follower = core.executor.followApprovals({
      consumer: 'serve-like',
      startAt: 'end',
      handle: async (event) => void seen.push(event),
    });
    const c = core.sandbox.credentials;
    const result = await runCli(
      ['call', 'create_payout', '--input', JSON.stringify({ ...PAYOUT, amount: 14 })],
      {
        BANKOPS_DB: core.dbPath,
        BANKOPS_BASE_URL: core.sandbox.url,
        BANKOPS_API_KEY: c.apiKey,
        BANKOPS_PRODUCT_ID: c.productId,
        BANKOPS_USER_ID: c.userId,
        BANKOPS_COMPANY_ID: c.companyId,
        BANKOPS_ACTOR: 'dora',
      },
    );
    expect(result.json?.status, result.stderr).toBe('pending_approval');
    const asked = Date.now();
    await until(
      () => seen.some((e) => e.approvalId === result.json.approvalId),
      'the event from the CLI process',
      5_000,
    );
    expect(Date.now() - asked).toBeLessThan(1_500);
    expect(seen.find((e) => e.approvalId === result.json.approvalId)).toMatchObject({
      kind: 'opened',
      actor: 'cli:dora',
    });
    const view = await core.executor.getApproval(result.json.approvalId);
    expect(view?.origin).toEqual({ frontEnd: 'cli', displayName: 'cli:dora' });
    await follower.stop();
  });
});

describe('a follower and a busy database', () => {
  it('keeps following when recording its position meets a database locked by another writer', async () => {
    const handled: string[] = [];
    const follower = core.executor.followApprovals({
      consumer: 'busy-test',
      startAt: 'end',
      retryMs: 20,
      handle: async (event) => void handled.push(`${event.kind}:${event.approvalId}`),
    });
    // Another writer holds the lock longer than this connection waits for it (a maintenance job, a
    // slow disk): writing the position fails, which must be retried, not end the process.
    core.db.pragma('busy_timeout = 50');
    const other = new Database(core.dbPath);
    try {
      const { id } = pending(await core.call('create_payout', { ...PAYOUT, amount: 15 }));
      other.exec('BEGIN IMMEDIATE');
      await until(() => handled.includes(`opened:${id}`), 'the event to be handed while the lock is held');
      await new Promise((resolve) => setTimeout(resolve, 150));
      other.exec('ROLLBACK');
      await core.executor.cancel(id, core.operator);
      await until(() => handled.includes(`cancelled:${id}`), 'the next event once the lock is gone', 5_000);
      expect(await core.runtime.approvals.feed.cursor('busy-test')).toBe(
        await core.runtime.approvals.feed.head(),
      );
    } finally {
      other.close();
      core.db.pragma('busy_timeout = 5000');
      await follower.stop();
    }
  });
});
