import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { cliActor } from '../../src/core/actors.js';
import type { ApprovalEvent } from '../../src/core/approvals/types.js';
import { parseConfig } from '../../src/core/config.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { PAYOUT, pending, until } from '../helpers/approvals.js';
import { manualClock } from '../helpers/clock.js';
import { runtimeOptions, testConfig } from '../helpers/core.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../helpers/postgres.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

const available = await postgresAvailable();

/** A follower that never polls in the test's time: only a wake-up can bring it an event. */
const NO_POLL_MS = 600_000;

describe.skipIf(!available)('followers across replicas on PostgreSQL', () => {
  const database = useTestDatabase();
  let sandbox: RunningSandbox;
  let dir: string;
  const runtimes: Runtime[] = [];

  async function replica(name: string): Promise<Runtime> {
    const config = {
      ...testConfig(sandbox, { dbPath: join(dir, `${name}.db`) }),
      databaseUrl: database.url(),
      fingerprintKeyFile: join(dir, 'fingerprint.key'),
    };
    const runtime = await createRuntime(config, { ...runtimeOptions(), owner: `${name}:1` });
    runtimes.push(runtime);
    return runtime;
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), 'bankops-wakeups-'));
    writeFingerprintKey(dir);
  });
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('wakes a follower on one replica when another commits (NOTIFY), without waiting for a poll', async () => {
    const [a, b] = [await replica('wake-a'), await replica('wake-b')];
    const seen: { event: ApprovalEvent; at: number }[] = [];
    const follower = b.executor.followApprovals({
      consumer: 'test-wakeups',
      startAt: 'end',
      pollMs: NO_POLL_MS,
      handle: async (event) => void seen.push({ event, at: Date.now() }),
    });
    await follower.drain();
    // Listening before the change (the listener connects in the background).
    await until(async () => {
      const rows = await database
        .store()
        .pool.query("SELECT 1 FROM pg_stat_activity WHERE query = 'LISTEN bankops_feed'");
      return (rows.rowCount ?? 0) > 0;
    }, 'the LISTEN connection');
    const committed = Date.now();
    const { id } = pending(
      await a.executor.execute({
        tool: 'create_payout',
        input: { ...PAYOUT, amount: 2001 },
        actor: cliActor('operator'),
      }),
    );
    await until(() => seen.some((s) => s.event.approvalId === id), 'the wake-up');
    const arrival = seen.find((s) => s.event.approvalId === id)?.at ?? 0;
    // A poll is ten minutes away: an arrival before it is the wake-up (milliseconds at rest,
    // seconds on a busy machine; no figure of this machine's speed is asserted).
    expect(arrival - committed).toBeLessThan(NO_POLL_MS);
    await follower.stop();
  });

  it('hands each event to one replica of a group, and the group carries on when one stops', async () => {
    const [a, b] = [await replica('group-a'), await replica('group-b')];
    const handled: { seq: number; by: string }[] = [];
    const follow = (runtime: Runtime, by: string) =>
      runtime.executor.followApprovals({
        consumer: 'test-group',
        group: true,
        startAt: 'end',
        handle: async (event) => void handled.push({ seq: event.seq, by }),
      });
    const [fa, fb] = [follow(a, 'a'), follow(b, 'b')];
    await Promise.all([fa.drain(), fb.drain()]);
    const opened: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const runtime = i % 2 === 0 ? a : b;
      const result = await runtime.executor.execute({
        tool: 'create_payout',
        input: { ...PAYOUT, amount: 3000 + i },
        actor: cliActor('operator'),
      });
      opened.push(pending(result).id);
    }
    await Promise.all([fa.drain(), fb.drain()]);
    // The first replica stops; what follows is the other's.
    await fa.stop();
    for (const id of opened.slice(0, 2)) await b.executor.cancel(id, cliActor('operator'));
    await fb.drain();
    await fb.stop();

    const head = await a.approvals.feed.head();
    const start = head - 8;
    const seqs = handled.map((h) => h.seq).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 8 }, (_, i) => start + i + 1));
    expect(handled.slice(-2).map((h) => h.by)).toEqual(['b', 'b']);
    expect(await a.approvals.feed.cursor('test-group')).toBe(head);
  });
});

describe.skipIf(!available)('expiry across replicas on PostgreSQL', () => {
  const database = useTestDatabase();
  let sandbox: RunningSandbox;
  let dir: string;
  const runtimes: Runtime[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), 'bankops-expiry-'));
    writeFingerprintKey(dir);
  });
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("expires an approval once when both replicas' timers fire at its deadline", async () => {
    const clock = manualClock();
    const start = async (name: string) => {
      const config = {
        ...testConfig(sandbox, { dbPath: join(dir, `${name}.db`) }),
        databaseUrl: database.url(),
        fingerprintKeyFile: join(dir, 'fingerprint.key'),
      };
      const runtime = await createRuntime(config, {
        ...runtimeOptions({ clock, background: true }),
        owner: `${name}:1`,
      });
      runtimes.push(runtime);
      return runtime;
    };
    const [a, b] = [await start('expiry-a'), await start('expiry-b')];
    const { id, expiresAt } = pending(
      await a.executor.execute({
        tool: 'create_payout',
        input: { ...PAYOUT, amount: 4001 },
        actor: cliActor('operator'),
      }),
    );
    // Both timers armed on the deadline (b hears of the approval at its next look, within a second).
    clock.advance(1_000);
    clock.set(new Date(Date.parse(expiresAt)));
    await until(async () => (await b.approvals.get(id))?.state === 'expired', 'the expiry');
    await Promise.all([a.approvals.stopBackground(), b.approvals.stopBackground()]);
    const rows = await database
      .store()
      .pool.query(
        "SELECT count(*)::int AS n FROM approval_events WHERE approval_id = $1 AND kind = 'expired'",
        [id],
      );
    expect(rows.rows[0]?.n).toBe(1);
    await a.audit.flush();
    const entries = await a.audit.list({ approvalId: id, limit: 100 });
    expect(entries.filter((e) => e.decision === 'expired')).toHaveLength(1);
  });
});

describe('BANKOPS_EXECUTION_LEASE_SECONDS', () => {
  const parse = (value: string) => parseConfig({ BANKOPS_EXECUTION_LEASE_SECONDS: value }, SANDBOX_DEFAULTS);

  it('sets how long an executing approval stays with a silent replica; a bad value is refused naming it', () => {
    expect(parse('5').executionLeaseSeconds).toBe(5);
    expect(() => parse('1')).toThrow(/BANKOPS_EXECUTION_LEASE_SECONDS: must be at least 2 seconds/);
    expect(() => parse('ten')).toThrow(/BANKOPS_EXECUTION_LEASE_SECONDS: must be a whole number of seconds/);
    expect(() => parse('7200')).toThrow(/BANKOPS_EXECUTION_LEASE_SECONDS: must be at most 3600/);
  });
});
