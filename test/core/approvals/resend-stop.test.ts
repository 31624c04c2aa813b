import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/app/runtime.js';
import { cliActor } from '../../../src/core/actors.js';
import { resendPauseMs } from '../../../src/core/approvals/retrying.js';
import { PAYOUT, pending, until } from '../../helpers/approvals.js';
import { manualClock } from '../../helpers/clock.js';
import { runtimeOptions, testConfig } from '../../helpers/core.js';
import { outage, refused } from '../../helpers/resend-window.js';
import { type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

/**
 * Stopping a process (a deploy, SIGTERM) while its background re-send is between two sends: the
 * re-send ends at once and lets the approval go, however long its next pause would have been, so
 * another replica can take it over without waiting for a lease to run out.
 */

const clock = manualClock();
let sandbox: RunningSandbox;
let dir: string;
let runtime: Runtime;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'bankops-resend-stop-'));
  runtime = await createRuntime(
    testConfig(sandbox, { dbPath: join(dir, 'bankops.db') }),
    runtimeOptions({ clock, background: true, owner: 'host-a:1', resendDelaysMs: [60_000] }),
  );
});
afterAll(async () => {
  await runtime?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a background re-send, when its process stops', () => {
  it('ends at once even when the stop comes while it reads the approval before its pause', async () => {
    const { id } = pending(
      await runtime.executor.execute({ tool: 'create_payout', input: PAYOUT, actor: cliActor('operator') }),
    );
    await outage(sandbox);
    const nextSend = clock.now().getTime() + resendPauseMs(0, [60_000]);

    // The first send is refused (503): the window opens. Right then the test takes the database's
    // write lock, so the re-send's first read of the approval (just before its pause) waits behind it.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let held: Promise<void> | undefined;
    const unsubscribe = runtime.approvals.onEvent((event) => {
      if (event.approvalId === id && event.kind === 'retrying')
        held = runtime.storage.transaction(() => gate);
    });
    const voting = runtime.executor.approve(id, cliActor('approver'));
    await until(() => held !== undefined, 'the re-send window opened');
    unsubscribe();
    await new Promise((resolve) => setImmediate(resolve));

    // The process stops while that read waits; then the read goes through.
    let stopped = false;
    const stopping = runtime.approvals.stopBackground().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    // The re-send is still in that read: it has not paused yet.
    expect(clock.waitsUntil(nextSend)).toBe(false);
    open();
    await held;

    // It stops without waiting for the next re-send's time (a minute on this clock, which stands still).
    await until(() => stopped || clock.waitsUntil(nextSend), 'the re-send to stop or pause');
    expect(stopped).toBe(true);
    await stopping;
    expect(await voting).toMatchObject({ status: 'ok', approval: { state: 'executing' } });
    const row = await runtime.storage.read((s) => s.approvals.byId(id));
    expect(row).toMatchObject({ state: 'executing', owner: null, leaseUntil: null, sends: 1 });
    expect(await refused(sandbox)).toBe(1);
  });
});
