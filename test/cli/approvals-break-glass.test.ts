import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PAYOUT } from '../helpers/approvals.js';
import { BREAK_GLASS_POLICY } from '../helpers/break-glass.js';
import { cliHome, runCliHere } from '../helpers/cli.js';

// `bankops approvals break-glass` and `review --close` against a SQLite file, each command a
// process of its own: the glass broken by an admin runs the payout; its review closes after two
// other admins, never the person who broke it.

const home = cliHome();
afterAll(() => home.cleanup());
const policy = join(home.dir, 'policy.yaml');
writeFileSync(policy, BREAK_GLASS_POLICY);
const env = { ...home.env, BANKOPS_POLICY: policy };
const bankops = (...args: string[]) => runCliHere(args, env);
const text = (...args: string[]) => runCliHere(args, { ...env, BANKOPS_OUTPUT: 'text' });

describe('bankops approvals break-glass', () => {
  it('runs a pending payout for an admin, and keeps its review open until two others close it', async () => {
    const asked = await bankops('call', 'create_payout', '--input', JSON.stringify(PAYOUT), '--as', 'olga');
    expect(asked.json, asked.stderr).toMatchObject({ status: 'pending_approval' });
    const id: string = asked.json.approvalId;

    const noReason = await bankops('approvals', 'break-glass', id, '--as', 'ada');
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('approvals break-glass needs --reason');
    const card = await bankops(
      'approvals',
      'break-glass',
      id,
      '--as',
      'ada',
      '--reason',
      'card 4111111111111111',
    );
    expect(card.code).toBe(2);
    expect(card.stderr).toContain('the reason must not hold a card number or a token');
    expect(card.stderr).not.toContain('4111111111111111');
    const esc = await bankops('approvals', 'break-glass', id, '--as', 'ada', '--reason', 'ok\u001b[1A');
    expect(esc.code).toBe(2);
    expect(esc.stderr).toContain('without control characters');
    const noRole = await bankops('approvals', 'break-glass', id, '--as', 'pat', '--reason', 'urgent');
    expect(noRole.code).toBe(3);
    expect(noRole.json.reason).toContain('break-glass needs role admin');

    const ran = await bankops('approvals', 'break-glass', id, '--as', 'ada', '--reason', 'approvers offline');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.json).toMatchObject({ status: 'executed', approval: { state: 'succeeded' } });
    expect((await bankops('approvals', 'show', id)).json).toMatchObject({
      breakGlass: { person: 'cli:ada', reason: 'approvers offline', needed: 2, closers: [] },
    });
    expect((await text('approvals', 'show', id)).stdout).toContain('Review open: closed by 0 of 2');
    // The listing marks it, with its open review (the view carries the review: `show --json` above).
    const listed = (await text('approvals', 'list')).stdout.split('\n').find((l) => l.includes(id));
    expect(listed).toMatch(/ succeeded .*, break-glass \(review open\)/);
    // A reviewer finds the reviews still open without Slack.
    const open = await text('approvals', 'review');
    expect(open.code).toBe(0);
    expect(open.stdout).toContain(`\`${id}\` by ada (CLI) at `);
    expect(open.stdout).toContain('approvers offline — closed by 0 of 2');
    expect((await bankops('approvals', 'review')).json).toMatchObject([{ approvalId: id, closers: [] }]);

    const self = await bankops('approvals', 'review', id, '--close', '--as', 'ada', '--reason', 'mine');
    expect(self.code).toBe(3);
    expect(self.json.reason).toContain('its review is closed by others');
    const first = await text(
      'approvals',
      'review',
      id,
      '--close',
      '--as',
      'bob',
      '--reason',
      'CFO confirmed',
    );
    expect(first.stdout).toContain('Review open: closed by 1 of 2');
    const second = await bankops(
      'approvals',
      'review',
      id,
      '--close',
      '--as',
      'cy',
      '--reason',
      'invoice ok',
    );
    expect(second.json).toMatchObject({ status: 'closed' });
    expect((await bankops('approvals', 'show', id)).json.breakGlass.closedAt).toBeDefined();
    const closed = (await text('approvals', 'list')).stdout.split('\n').find((l) => l.includes(id));
    expect(closed).toMatch(/ succeeded .*, break-glass/);
    expect(closed).not.toContain('review open');
    expect((await text('approvals', 'review')).stdout).toBe('No break-glass review is open.\n');
  });

  it('says a break-glass was one, with its open review; a review not found names the database', async () => {
    const asked = await bankops(
      'call',
      'create_payout',
      '--input',
      JSON.stringify({ ...PAYOUT, amount: 600 }),
      '--as',
      'olga',
    );
    const id: string = asked.json.approvalId;
    const ran = await text('approvals', 'break-glass', id, '--as', 'ada', '--reason', 'approvers offline');
    expect(ran.code, ran.stderr).toBe(0);
    const said = ran.stdout.replace(/\s+/g, ' ');
    expect(said).toContain(`Break-glass by ada (CLI). Executed: create_payout ran for ${id}`);
    expect(said).toContain(
      `Review open until two admins close it: bankops approvals review ${id} --close --reason "…".`,
    );
    const big = await bankops(
      'call',
      'create_payout',
      '--input',
      JSON.stringify({ ...PAYOUT, amount: 20_000 }),
      '--as',
      'olga',
    );
    const capped = await bankops(
      'approvals',
      'break-glass',
      big.json.approvalId,
      '--as',
      'ada',
      '--reason',
      'x y',
    );
    expect(capped.json.reason).toContain('at most 10,000.00 USD (policy breakGlass.max)');
    expect(capped.json.reason).toMatch(/would debit 20,\d{3}\.\d{2} USD/);

    const none = await text(
      'approvals',
      'review',
      'apr_nope',
      '--close',
      '--as',
      'bob',
      '--reason',
      'checked',
    );
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('Not found: no break-glass review of apr_nope in the SQLite file');
  });
});

// Under governance, a policy change is never run by break-glass: it has no debit for the cap to
// bound, and waits for its approvers; the version in force stays the file's.
const governedHome = cliHome();
afterAll(() => governedHome.cleanup());
const governedPolicy = join(governedHome.dir, 'policy.yaml');
writeFileSync(governedPolicy, `governance: { approvers: 2, role: admin }\n${BREAK_GLASS_POLICY}`);
const governedEnv = { ...governedHome.env, BANKOPS_POLICY: governedPolicy };
const governed = (...args: string[]) => runCliHere(args, governedEnv);

describe('bankops approvals break-glass under governance', () => {
  it('refuses a policy change: it waits for the governance approvers', async () => {
    const next = join(governedHome.dir, 'next.yaml');
    writeFileSync(
      next,
      `governance: { approvers: 2, role: admin }\n${BREAK_GLASS_POLICY.replace('USD: 10000', 'USD: 90000')}`,
    );
    const proposed = await governed('policy', 'propose', next, '--as', 'bob');
    expect(proposed.json, proposed.stderr).toMatchObject({
      status: 'pending_approval',
      tool: 'propose_policy',
    });
    const id: string = proposed.json.approvalId;

    const glass = await governed('approvals', 'break-glass', id, '--as', 'ada', '--reason', 'urgent change');
    expect(glass.code).toBe(3);
    expect(glass.json.reason).toBe(
      'break-glass runs money movements under its cap only; propose_policy waits for its approvers',
    );
    expect((await governed('approvals', 'show', id)).json).toMatchObject({ state: 'pending' });
    expect((await governed('policy', 'show')).json).toMatchObject({ version: 1 });
  });
});
