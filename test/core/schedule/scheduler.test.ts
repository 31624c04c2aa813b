import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/log.js';
import { pruneClaimsJob } from '../../../src/core/schedule/prune.js';
import { Scheduler } from '../../../src/core/schedule/scheduler.js';
import { openDatabase } from '../../../src/core/store/sqlite/database.js';
import { SqliteStorage } from '../../../src/core/store/sqlite/storage.js';
import { manualClock } from '../../helpers/clock.js';

const dir = mkdtempSync(join(tmpdir(), 'bankops-scheduler-'));
const db = openDatabase(join(dir, 'bankops.db'));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
const storage = new SqliteStorage(db);

/** Lets the job's promise chain settle (it awaits the database) before the clock moves again. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Scheduler', () => {
  it('runs a job at once and then each period after the last run ended, on the clock it is given', async () => {
    const clock = manualClock('2026-11-26T09:00:00Z');
    const scheduler = new Scheduler({ storage, clock, owner: 'host:1', log: silentLogger });
    const runs: string[] = [];
    scheduler.every({ name: 'tick', everyMs: 60_000, run: async (now) => void runs.push(now.toISOString()) });
    clock.advance(0);
    await settle();
    await scheduler.drain();
    clock.advance(59_000);
    await settle();
    expect(runs).toEqual(['2026-11-26T09:00:00.000Z']);
    clock.advance(1_000);
    await settle();
    await scheduler.drain();
    expect(runs).toEqual(['2026-11-26T09:00:00.000Z', '2026-11-26T09:01:00.000Z']);
    await scheduler.stop();
    clock.advance(600_000);
    await settle();
    expect(runs).toHaveLength(2);
    expect(clock.waiting).toBe(0);
  });

  it('never runs a job twice at once, and a failing run does not stop the next', async () => {
    const clock = manualClock('2026-11-26T09:00:00Z');
    const scheduler = new Scheduler({ storage, clock, owner: 'host:1', log: silentLogger });
    let active = 0;
    let most = 0;
    let calls = 0;
    scheduler.every({
      name: 'slow',
      everyMs: 1_000,
      run: async () => {
        calls += 1;
        active += 1;
        most = Math.max(most, active);
        await settle();
        active -= 1;
        if (calls === 1) throw new Error('the service did not answer');
      },
    });
    await Promise.all([scheduler.runAll(), scheduler.runAll(), scheduler.runAll()]);
    expect(most).toBe(1);
    await scheduler.runAll();
    expect(calls).toBeGreaterThanOrEqual(2);
    await scheduler.stop();
  });

  it('starts a job after its first pause, runs one tied to the calendar at its own times, and removes one', async () => {
    const clock = manualClock('2026-11-26T23:00:00Z');
    const scheduler = new Scheduler({ storage, clock, owner: 'host:1', log: silentLogger });
    const runs: string[] = [];
    const untilMidnight = (now: Date): number =>
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime();
    scheduler.every({
      name: 'daily',
      everyMs: 60_000,
      firstAfterMs: untilMidnight(clock.now()),
      nextAfterMs: untilMidnight,
      run: async (now) => void runs.push(now.toISOString()),
    });
    clock.advance(0);
    await settle();
    expect(runs).toEqual([]);
    clock.set('2026-11-27T00:00:00Z');
    await settle();
    await scheduler.drain();
    clock.set('2026-11-27T12:00:00Z');
    await settle();
    expect(runs).toEqual(['2026-11-27T00:00:00.000Z']);
    clock.set('2026-11-28T00:00:00Z');
    await settle();
    await scheduler.drain();
    expect(runs).toEqual(['2026-11-27T00:00:00.000Z', '2026-11-28T00:00:00.000Z']);
    await scheduler.remove('daily');
    expect(scheduler.has('daily')).toBe(false);
    clock.set('2026-11-30T00:00:00Z');
    await settle();
    expect(runs).toHaveLength(2);
    expect(clock.waiting).toBe(0);
  });

  it('lets one scheduler claim a slot, once', async () => {
    const clock = manualClock('2026-11-26T09:00:00Z');
    const a = new Scheduler({ storage, clock, owner: 'host-a:1', log: silentLogger });
    const b = new Scheduler({ storage, clock, owner: 'host-b:2', log: silentLogger });
    const claims = await Promise.all([a.once('digest:C1:2026-11-26'), b.once('digest:C1:2026-11-26')]);
    expect(claims.sort()).toEqual([false, true]);
    expect(await a.once('digest:C1:2026-11-26')).toBe(false);
    expect(await a.once('digest:C1:2026-11-27')).toBe(true);
    await expect(a.once('x'.repeat(201))).rejects.toThrow(/longer than 200/);
  });
});

describe('pruning claims', () => {
  it('forgets the claims older than a week, by the claimed_at index, and keeps the rest', async () => {
    const clock = manualClock('2026-11-01T09:00:00Z');
    const scheduler = new Scheduler({ storage, clock, owner: 'host:1', log: silentLogger });
    expect(await scheduler.once('balance-alerts:old')).toBe(true);
    clock.set('2026-11-05T09:00:00Z');
    expect(await scheduler.once('balance-alerts:recent')).toBe(true);
    clock.set('2026-11-08T09:00:01Z');
    scheduler.every(pruneClaimsJob(storage, silentLogger));
    await scheduler.runAll();
    await scheduler.stop();
    const claimed = (key: string) => storage.read((s) => s.claims.claimed(key));
    expect(await claimed('balance-alerts:old')).toBe(false);
    expect(await claimed('balance-alerts:recent')).toBe(true);
    const plan = db
      .prepare("EXPLAIN QUERY PLAN DELETE FROM schedule_claims WHERE claimed_at < '2026-11-01'")
      .all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join(' ')).toContain('schedule_claims_claimed_at');
  });
});
