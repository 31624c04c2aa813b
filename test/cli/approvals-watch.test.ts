import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, payoutCall, runCliHere as runCli } from '../helpers/cli.js';
import { manualClock } from '../helpers/clock.js';

/**
 * `approvals watch <id>` follows one approval to its end and exits with its outcome's code (the
 * table in its help); `approvals executing` lists what is held; a "not found" names the database.
 */

let home: ReturnType<typeof cliHome>;
let text: Record<string, string>;
beforeAll(() => {
  home = cliHome();
  text = { ...home.env, BANKOPS_OUTPUT: 'text', COLUMNS: '400' };
});
afterAll(() => home.cleanup());

let amount = 200;
async function requestPayout(): Promise<string> {
  amount += 1;
  const res = await runCli(payoutCall(amount), home.env);
  expect(res.json?.status, res.stderr).toBe('pending_approval');
  return res.json.approvalId as string;
}

describe('approvals watch', () => {
  it('follows a payout through its vote, its run and its settlement, and exits 0', async () => {
    // bankops's clock is the test's: the first look at sent money is due when the test says so.
    const clock = manualClock();
    const id = await requestPayout();
    const watching = runCli(['approvals', 'watch', id, '--interval', '0.1'], text, { clock });
    const approved = await runCli(['approvals', 'approve', id, '--as', 'bob'], text, { clock });
    expect(approved.code, approved.stderr).toBe(0);
    // The sandbox settles the payout once its clock has moved on; bankops looks once its own has.
    expect((await runCli(['sandbox', 'clock', '+2m'], text)).code).toBe(0);
    clock.advance(2 * 60_000);
    const watched = await watching;
    expect(watched.code, watched.stderr).toBe(0);
    const lines = watched.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Watching ${id} \\(create_payout\\): Waiting for 1 more approver`));
    expect(watched.stdout).toMatch(/ {2}Approved by bob/);
    expect(watched.stdout).toMatch(/ {2}Done: create_payout ran/);
    expect(lines.at(-1)).toMatch(/COMPLETED/);
  });

  it('exits 3 for a rejected approval and 7 for a cancelled one, with one JSON line per change', async () => {
    const rejected = await requestPayout();
    expect(
      (await runCli(['approvals', 'reject', rejected, '--reason', 'wrong payee', '--as', 'bob'], text)).code,
    ).toBe(0);
    const watched = await runCli(['approvals', 'watch', rejected, '--json'], text);
    expect(watched.code).toBe(3);
    const json = watched.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(json.map((line) => (line.event as { kind?: string } | undefined)?.kind ?? line.status)).toEqual([
      'opened',
      'rejected',
      'rejected',
    ]);
    expect(json.at(-1)).toMatchObject({ status: 'rejected', exitCode: 3, approval: { id: rejected } });

    const cancelled = await requestPayout();
    expect((await runCli(['approvals', 'cancel', cancelled], text)).code).toBe(0);
    expect((await runCli(['approvals', 'watch', cancelled], text)).code).toBe(7);
  });

  it('names the database it looked in when there is no such approval', async () => {
    const watched = await runCli(['approvals', 'watch', 'apr_nope'], text);
    expect(watched.code).toBe(2);
    expect(watched.stderr).toBe(
      `bankops: no approval 'apr_nope' in the SQLite file ${home.dbPath}; bankops approvals list shows them\n`,
    );
    const shown = await runCli(['approvals', 'show', 'apr_nope'], text);
    expect(shown.stderr).toContain(`in the SQLite file ${home.dbPath}`);
    const approve = await runCli(['approvals', 'approve', 'apr_nope', '--as', 'bob', '--json'], text);
    expect(approve.json).toMatchObject({ status: 'not_found', store: `the SQLite file ${home.dbPath}` });
    expect((await runCli(['approvals', 'watch', 'x', '--interval', '0'], text)).code).toBe(2);
  });
});

describe('approvals executing', () => {
  it('says when nothing is being executed, and lists nothing in JSON', async () => {
    const listed = await runCli(['approvals', 'executing'], text);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Nothing is being executed.');
    expect((await runCli(['approvals', 'executing', '--json'], home.env)).json).toEqual([]);
  });
});
