import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/core/actors.js';
import { eventLine } from '../../src/present/approval-history.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { BREAK_GLASS_STEP_UP_POLICY } from '../helpers/break-glass.js';
import { runCliHere } from '../helpers/cli.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { enrolSoftPasskey } from '../helpers/soft-passkey.js';
import { stepUpCliEnv } from '../helpers/step-up.js';

/**
 * `bankops approvals break-glass` under `breakGlass.stepUp: passkey`: every check first (a refusal
 * said, audited, and no link), then the break-glass page's one-time link and exit 5; nothing runs
 * before the passkey confirms it there. The CLI runs in this process on the same database; the page
 * itself over HTTP is test/web/break-glass-http.test.ts's.
 */

const ORIGIN = 'http://localhost:4997';
let c: TestCore;
let env: Record<string, string>;

beforeAll(async () => {
  c = await createTestCore({ policyYaml: BREAK_GLASS_STEP_UP_POLICY, publicUrl: ORIGIN });
  env = stepUpCliEnv(c, ORIGIN);
});
afterAll(async () => {
  await c?.close();
});

const breakGlass = (id: string, as: string, ...more: string[]) =>
  runCliHere(['approvals', 'break-glass', id, '--as', as, '--reason', 'approvers offline', ...more], env);

describe('bankops approvals break-glass under step-up', () => {
  it('refuses a policy asking for it without an https public URL', async () => {
    const run = await runCliHere(['approvals', 'list'], {
      ...env,
      BANKOPS_PUBLIC_URL: 'http://bankops.example.com',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('breakGlass.stepUp: passkey confirmation needs an https BANKOPS_PUBLIC_URL');
  });

  it('checks everything before a link: role, requester, cap, a passkey to confirm with', async () => {
    const id = pending(await c.call('create_payout', PAYOUT)).id;
    const noRole = await breakGlass(id, 'pat');
    expect(noRole.code).toBe(3);
    expect(noRole.json).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('needs role admin'),
    });
    const own = pending(await c.call('create_payout', { ...PAYOUT, amount: 1100 }, cliActor('bob'))).id;
    expect((await breakGlass(own, 'bob')).json.reason).toContain('break-glass is never by the requester');
    const big = pending(await c.call('create_payout', { ...PAYOUT, amount: 20_000 })).id;
    expect((await breakGlass(big, 'ada')).json.reason).toContain('at most 10,000.00 USD');
    // Each refusal is on record, like one of a break-glass run without step-up.
    const audited = await c.audit.list({ approvalId: id, limit: 100 });
    expect(audited.filter((e) => e.decision === 'refused').map((e) => e.error)).toContainEqual(
      expect.stringContaining('needs role admin'),
    );
    const none = await breakGlass(id, 'ada', '--json');
    expect(none.code).toBe(3);
    expect(none.json.reason).toContain('cli:ada has none yet');
    expect(await c.executor.getApproval(id)).toMatchObject({ state: 'pending' });
    // The refusal for want of a passkey is on record too, and no link was handed out.
    const after = await c.audit.list({ approvalId: id, limit: 100 });
    expect(after.filter((e) => e.decision === 'refused').at(-1)).toMatchObject({
      actor: 'cli:ada',
      outcome: 'failed',
      error: expect.stringContaining('cli:ada has none yet'),
    });
    expect(after.map((e) => e.decision)).not.toContain('break_glass_asked');
  });

  it('prints the page link and exits 5; it runs once confirmed with the passkey', async () => {
    const key = await enrolSoftPasskey(c.runtime.passkeys, 'cli:ada', c.operator, ORIGIN);

    const id = pending(await c.call('create_payout', { ...PAYOUT, amount: 900 })).id;
    const text = await runCliHere(
      ['approvals', 'break-glass', id, '--as', 'ada', '--reason', 'approvers offline'],
      {
        ...env,
        BANKOPS_OUTPUT: 'text',
      },
    );
    expect(text.code).toBe(5);
    expect(text.stdout).toContain(`Break-glass on ${id} needs your passkey`);
    expect(text.stdout).toMatch(new RegExp(`${ORIGIN}/break-glass/[A-Za-z0-9_-]{43}`));
    const json = await breakGlass(id, 'ada', '--json');
    expect(json.code).toBe(5);
    expect(json.json).toEqual({
      status: 'step_up',
      url: expect.stringMatching(new RegExp(`^${ORIGIN}/break-glass/[A-Za-z0-9_-]{43}$`)),
      expiresAt: expect.any(String),
    });
    expect(await c.executor.getApproval(id)).toMatchObject({ state: 'pending' });
    expect(await c.executor.breakGlass.reviews(id)).toEqual([]);
    // Each link handed out is on record, pending: asked for, nothing run.
    const asked = (await c.audit.list({ approvalId: id, limit: 100 })).filter(
      (e) => e.decision === 'break_glass_asked',
    );
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatchObject({
      actor: 'cli:ada',
      event: 'decided',
      outcome: 'pending',
      error: `break-glass asked by cli:ada: approvers offline; runs only once confirmed with their passkey (link until ${String(json.json.expiresAt)})`,
    });
    // The link is the page's key: it is in no audit entry.
    expect(JSON.stringify(asked)).not.toContain(String(json.json.url).split('/').at(-1));

    const token = String(json.json.url).split('/').at(-1) ?? '';
    const page = await c.runtime.passkeys.breakGlassPage(token);
    expect(page).toMatchObject({ reason: 'approvers offline', cap: { amount: 10_000, currency: 'USD' } });
    const signed = key.sign((await c.runtime.passkeys.breakGlassOptions(token, 1)) as { challenge: string });
    expect(await c.runtime.passkeys.breakGlassFinish(token, signed)).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded' },
    });
    const shown = await runCliHere(['approvals', 'show', id, '--json'], env);
    expect(shown.json).toMatchObject({ breakGlass: { person: 'cli:ada', reason: 'approvers offline' } });
    // Its history (Slack's thread, `approvals watch`) says the glass was broken with a passkey.
    const view = await c.executor.getApproval(id);
    const lines = (await c.executor.approvalHistory(id)).map((event) => view && eventLine(event, view));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^Break-glass by ada \(CLI\) at .+, without its missing approvals: approvers offline \(confirmed with a passkey\)\. A review is now open$/,
      ),
    );
    // The first link, never opened, cannot run it a second time.
    const first = /\/break-glass\/([A-Za-z0-9_-]{43})/.exec(text.stdout)?.[1] ?? '';
    await expect(c.runtime.passkeys.breakGlassPage(first)).rejects.toThrow('it takes no more decisions');
  });
});
