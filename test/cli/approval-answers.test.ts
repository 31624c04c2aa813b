import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, payoutCall, runCliHere as runCli } from '../helpers/cli.js';

/**
 * `approvals approve|reject|cancel|reconcile` through the CLI's main, in this process: one line on what happened,
 * the exit code documented in README, and with --json the full view under a status that matches the
 * line. (Each outcome's words are tested against the engine in test/present/approval-outcome.test.ts.)
 */

let home: ReturnType<typeof cliHome>;
let text: Record<string, string>;
beforeAll(() => {
  home = cliHome();
  // A call the service did not answer is sent again at once: the pauses are configuration.
  home.env.BANKOPS_RESEND_DELAYS_MS = '0,0';
  // A terminal wide enough for each answer's sentence on one line (narrower ones wrap it).
  text = { ...home.env, BANKOPS_OUTPUT: 'text', COLUMNS: '400' };
});
afterAll(() => home.cleanup());

let amount = 100;
/** A payout request of its own amount (an identical one would join the open approval). */
async function requestPayout(extra: string[] = [], size?: number): Promise<string> {
  amount += 1;
  const res = await runCli([...payoutCall(size ?? amount), ...extra], home.env);
  expect(res.json?.status, res.stderr).toBe('pending_approval');
  return res.json.approvalId as string;
}

describe('approval answers', () => {
  it('refused (exit 3), rejected and cancelled (exit 0), not found (exit 2)', async () => {
    const first = await requestPayout();
    const own = await runCli(['approvals', 'approve', first], text);
    expect(own.code).toBe(3);
    // On the embedded sandbox one terminal plays every person: the answer says how to be another.
    expect(own.stdout).toBe(
      `Refused: alice (CLI) requested this call and cannot approve it. Another person approves it: bankops approvals approve ${first} --as <name>.\n`,
    );
    const rejected = await runCli(
      ['approvals', 'reject', first, '--reason', 'wrong payee', '--as', 'bob'],
      text,
    );
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toBe(`Rejected ${first}: wrong payee. create_payout will not run.\n`);
    const second = await requestPayout();
    const cancelled = await runCli(['approvals', 'cancel', second, '--json'], text);
    expect(cancelled.json).toMatchObject({ status: 'cancelled', approval: { state: 'cancelled' } });
    const missing = await runCli(['approvals', 'approve', 'apr_nope', '--as', 'bob'], text);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe(
      `No approval apr_nope in the SQLite file ${home.dbPath}. bankops approvals list shows them.\n`,
    );
  });

  it('executed (exit 0) names the payout and where the money stands', async () => {
    const id = await requestPayout();
    const done = await runCli(['approvals', 'approve', id, '--as', 'bob'], text);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(
      new RegExp(
        `^Executed: create_payout ran for ${id} \\(payoutId (po_\\w+), status PENDING\\)\\. Sent: payout \\1 is PENDING at the service \\(checked \\S+\\)\\.\\n$`,
      ),
    );
  });

  it('voted (exit 0) says how many more; --json keeps the view under a matching status', async () => {
    // 60,000 USD needs two approvers under the shipped policy.
    const id = await requestPayout([], 60000);
    const voted = await runCli(['approvals', 'approve', id, '--as', 'bob', '--json'], text);
    expect(voted.code).toBe(0);
    expect(voted.json).toMatchObject({
      status: 'voted',
      outcome: expect.stringMatching(/^Vote recorded on apr_\w+: 1 of 2 approvals; 1 more person/),
      approval: { state: 'pending', approvals: [{ approver: 'cli:bob' }] },
    });
    // A list cut at its limit says so.
    const one = await runCli(['approvals', 'list', '--limit', '1'], text);
    expect(one.stdout).toContain(
      '! Showing the newest 1; there may be more (--limit 500, or --state to narrow).',
    );
  });

  it('failed (exit 1) gives the service’s message', async () => {
    const blocked = await runCli(
      [
        'call',
        'update_card_status_b',
        'cardholderId=chb_demo_alice',
        'walletId=wal_demo_alice_usd',
        'cardId=card_demo_alice_stolen',
        'status=BLOCKED',
      ],
      home.env,
    );
    const failed = await runCli(['approvals', 'approve', blocked.json.approvalId, '--as', 'bob'], text);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(
      /^Failed: update_card_status_b was refused for apr_\w+: .*permanently blocked.*\. Nothing was done\.\n$/,
    );
  });

  it('sent back (exit 4) when a fresh quote is outside the bound, saying which bound and both figures', async () => {
    const id = await requestPayout(['destinationAssetCode=EUR']);
    const moved = await runCli(['sandbox', 'rates', 'EUR=1.3'], home.env);
    expect(moved.code).toBe(0);
    const back = await runCli(['approvals', 'approve', id, '--as', 'bob'], text);
    expect(back.code).toBe(4);
    expect(back.stdout).toMatch(
      /^Not executed: the fresh quote delivers [\d,.]+ EUR, less than the approved minimum of [\d,.]+ EUR\. apr_\w+ went back to the approvers \(attempt 2\)/,
    );
  });

  it('unresolved (exit 4) when the service never answers, then reconciled by a person', async () => {
    const id = await requestPayout();
    // Every send of this execution answered 503: the engine sends it three times, then leaves it.
    const fault = await runCli(
      ['sandbox', 'faults', '/svc/banking/api/v1/payouts', 'method=POST', 'status=503', 'times=3'],
      home.env,
    );
    expect(fault.code).toBe(0);
    const unresolved = await runCli(['approvals', 'approve', id, '--as', 'bob', '--json'], text);
    expect(unresolved.code).toBe(4);
    expect(unresolved.json).toMatchObject({ status: 'unresolved', approval: { state: 'unresolved' } });
    expect(unresolved.json.outcome).toContain(
      `Look up request id ${id}-1 at the service, then reconcile ${id}`,
    );
    // A request id that is not the one it has now settles nothing, and says which it is now.
    const other = await runCli(
      [
        'approvals',
        'reconcile',
        id,
        '--not-sent',
        '--reason',
        'none',
        '--request-id',
        `${id}-2`,
        '--as',
        'bob',
      ],
      text,
    );
    expect(other.code).toBe(3);
    expect(other.stdout).toContain(
      `changed since you looked up ${id}-2: it is now attempt 1, request ${id}-1`,
    );
    // Sent once more with the same request id: this time the service answers.
    const retried = await runCli(
      [
        'approvals',
        'reconcile',
        id,
        '--retry',
        '--reason',
        'service back',
        '--request-id',
        `${id}-1`,
        '--as',
        'bob',
      ],
      text,
    );
    expect(retried.code).toBe(0);
    // Said before it was sent: until when the quote it re-sends holds, and the way on after it.
    expect(retried.stderr).toMatch(/re-sends its quote, which holds until \d{4}-\d\d-\d\dT[\d:.]+Z/);
    expect(retried.stdout).toMatch(new RegExp(`^Executed: create_payout ran for ${id} \\(payoutId po_\\w+`));
  });

  it('ask-again: refused while unresolved; after --not-sent, a fresh approval of the same request', async () => {
    const id = await requestPayout();
    const fault = await runCli(
      ['sandbox', 'faults', '/svc/banking/api/v1/payouts', 'method=POST', 'status=503', 'times=3'],
      home.env,
    );
    expect(fault.code).toBe(0);
    expect((await runCli(['approvals', 'approve', id, '--as', 'bob'], text)).code).toBe(4);
    const early = await runCli(['approvals', 'ask-again', id], text);
    expect(early.code).toBe(3);
    expect(early.stdout).toContain('mark it not sent first');
    const marked = await runCli(
      ['approvals', 'reconcile', id, '--not-sent', '--reason', `nothing under ${id}-1`, '--as', 'bob'],
      text,
    );
    expect(marked.code).toBe(0);
    const again = await runCli(['approvals', 'ask-again', id, '--json'], text);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ status: 'pending_approval', tool: 'create_payout' });
    expect(again.json.approvalId).not.toBe(id);
    expect(again.json.approval.input).toMatchObject({ amount: amount, beneficiaryId: 'ben_de_swift_0001' });
    const missing = await runCli(['approvals', 'ask-again', 'apr_nope'], text);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no approval 'apr_nope' in the SQLite file ${home.dbPath}`);
  });
});
