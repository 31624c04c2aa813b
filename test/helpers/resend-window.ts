import { expect } from 'vitest';
import type { Runtime } from '../../src/app/runtime.js';
import { cliActor } from '../../src/core/actors.js';
import type { Approval } from '../../src/core/approvals/approval.js';
import { resendPauseMs } from '../../src/core/approvals/retrying.js';
import { PAYOUT, PAYOUT_DEBIT, pending, until } from './approvals.js';
import type { ManualClock } from './clock.js';
import type { RunningSandbox } from './sandbox.js';

const PAYOUTS = '/svc/banking/api/v1/payouts';
const DELAYS = [1000, 4000];
const FAULTS = 1000;

/** Payout sends the sandbox refused (503) under the fault `outage` injected. */
export async function refused(sandbox: RunningSandbox): Promise<number> {
  const answer = await fetch(`${sandbox.url}/_sandbox/faults`);
  const body = (await answer.json()) as { faults: { remaining: number | null }[] };
  return body.faults.reduce((n, f) => n + (FAULTS - (f.remaining ?? 0)), 0);
}

/** The sandbox answers every payout with 503 from now on (an outcome bankops cannot know). */
export async function outage(sandbox: RunningSandbox): Promise<void> {
  const answer = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: PAYOUTS, method: 'POST', status: 503, times: FAULTS }),
  });
  expect(answer.status).toBe(200);
}

async function usd(runtime: Runtime, sandbox: RunningSandbox): Promise<number> {
  const { balances } = await runtime.client.accounts.balances({ companyCode: sandbox.credentials.companyId });
  return balances.find((b) => b.currency === 'USD')?.availableBalance ?? Number.NaN;
}

/**
 * The re-send window across replicas, on whatever database `a` and `b` share (both long-running,
 * on one manual clock, as `host-a:1` and `host-b:2`): A holds and re-sends; stopped, it lets go;
 * B takes over in the same window; the service pays once.
 */
export async function resendTakeover(
  a: Runtime,
  b: Runtime,
  sandbox: RunningSandbox,
  clock: ManualClock,
): Promise<void> {
  const row = async (id: string): Promise<Approval> => {
    const found = await a.storage.read((s) => s.approvals.byId(id));
    if (found === undefined) throw new Error(`no approval ${id}`);
    return found;
  };
  const balance = await usd(a, sandbox);
  const created = sandbox.stats()['payouts.create'] ?? 0;
  const { id } = pending(
    await a.executor.execute({ tool: 'create_payout', input: PAYOUT, actor: cliActor('operator') }),
  );
  await outage(sandbox);
  const start = clock.now().getTime();
  const until10m = new Date(start + 600_000).toISOString();

  // The vote returns while the outcome is unknown: executing, retrying, held by replica A.
  const voted = await a.executor.approve(id, cliActor('approver'));
  expect(voted).toMatchObject({ status: 'ok', approval: { state: 'executing', retryingUntil: until10m } });
  expect(await row(id)).toMatchObject({ owner: 'host-a:1', sends: 1 });
  expect(await b.executor.recover()).toBe(0);

  // Two re-sends at their times; A renews its lease as the clock passes.
  clock.set(new Date(start + resendPauseMs(0, DELAYS)));
  await until(async () => (await refused(sandbox)) === 2, 'the first re-send');
  clock.set(new Date(start + resendPauseMs(0, DELAYS) + resendPauseMs(1, DELAYS)));
  await until(async () => (await refused(sandbox)) === 3, 'the second re-send');
  await until(async () => (await row(id)).sends === 3, 'the send counted');
  expect(Date.parse((await row(id)).leaseUntil ?? '')).toBeGreaterThan(clock.now().getTime());
  expect(await b.executor.recover()).toBe(0);

  // A stops (shutdown): it lets the approval go at once, in its window.
  await a.approvals.stopBackground();
  expect(await row(id)).toMatchObject({ state: 'executing', owner: null, leaseUntil: null });

  // B takes it over: its first send is refused too, and the window stays the one A opened.
  expect(await b.executor.recover()).toBe(1);
  expect(await refused(sandbox)).toBe(4);
  expect((await row(id)).owner).toBe('host-b:2');
  expect((await b.executor.getApproval(id))?.retryingUntil).toBe(until10m);
  const kinds = (await b.approvals.feed.after(0, 10_000))
    .filter((e) => e.approvalId === id)
    .map((e) => e.kind);
  expect(kinds.filter((k) => k === 'retrying')).toHaveLength(1);

  // The service answers again: B's next re-send goes through, with the same request id.
  await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
  clock.set(new Date(clock.now().getTime() + resendPauseMs(0, DELAYS)));
  await until(async () => (await b.executor.getApproval(id))?.state === 'succeeded', 'succeeded');
  expect((await row(id)).requestId).toBe(`${id}-1`);
  expect((sandbox.stats()['payouts.create'] ?? 0) - created - 4).toBe(1);
  expect(balance - (await usd(b, sandbox))).toBe(PAYOUT_DEBIT);
}
