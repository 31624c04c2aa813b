import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServe, startServe } from '../../src/app/serve.js';
import { cliActor } from '../../src/core/actors.js';
import { verifySignatures } from '../../src/core/passkeys/index.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { BREAK_GLASS_STEP_UP_POLICY } from '../helpers/break-glass.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { freePort } from '../helpers/ports.js';
import { enrolSoftPasskey, type SoftPasskey } from '../helpers/soft-passkey.js';
import { withStepUp } from '../helpers/step-up.js';

/**
 * Break-glass under `breakGlass.stepUp: passkey`, through `bankops serve`'s listener as a browser
 * would go: the page shows what will run, marked BREAK-GLASS with the reason and the cap; the
 * passkey (a software authenticator making real ES256 signatures) signs the approval with the
 * reason; only then does it run, with the assertion in its audit entry. A vote's signature never
 * confirms a break-glass, nor the other way round; what changed after the link was handed out
 * (the approval decided, the cap lowered) is refused when it is confirmed.
 */

let c: TestCore;
let serve: RunningServe;
let base: string;
let origin: string;
const ada = cliActor('ada');
let key: SoftPasskey;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  // Votes on payouts are signed too, so the same person can hold a vote link and a break-glass link.
  c = await createTestCore({ policyYaml: withStepUp(BREAK_GLASS_STEP_UP_POLICY), publicUrl: origin });
  serve = await startServe({
    runtime: c.runtime,
    host: '127.0.0.1',
    port,
    settings: { slack: { enabled: false, why: 'not in this test' }, publicUrl: origin },
  });
  base = serve.url;
  key = await enrolSoftPasskey(c.runtime.passkeys, 'cli:ada', c.operator, origin);
});
afterAll(async () => {
  await serve?.close();
  await c?.close();
});

const local = (url: string): string => `${base}${new URL(url).pathname}`;
const post = async (url: string, body: unknown) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
/** The page's options step, as its script asks it: the WebAuthn options over what would be signed. */
const optionsOf = async (link: string, attempt = 1) => {
  const answer = await post(`${link}/options`, { attempt });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { challenge: string };
};
const asked = async (amount = 900) => pending(await c.call('create_payout', { ...PAYOUT, amount })).id;
const breakGlassLink = async (id: string, reason = 'both approvers unreachable, payroll due') =>
  local((await c.runtime.passkeys.breakGlassLink(id, ada, reason)).url);

describe('break-glass confirmed with a passkey, over HTTP', () => {
  it('shows what will run as a break-glass, and runs it only with the passkey', async () => {
    const id = await asked();
    // Without the passkey the engine runs nothing, whatever the caller.
    const bare = await c.executor.breakGlass.breakGlass(id, ada, 'no passkey');
    expect(bare.status === 'refused' ? bare.reason : '').toContain('needs a passkey confirmation');

    const link = await breakGlassLink(id);
    expect(link).toMatch(/\/break-glass\/[A-Za-z0-9_-]{43}$/);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('BREAK-GLASS');
    expect(html).toContain('both approvers unreachable, payroll due');
    expect(html).toContain('10,000.00 USD (policy breakGlass.max)');
    expect(html).toContain('data-page="break-glass"');
    expect(html).toContain(id);
    expect(await c.executor.getApproval(id)).toMatchObject({ state: 'pending' });

    const before = key.counter;
    const confirmed = await post(`${link}/confirm`, { response: key.sign(await optionsOf(link)) });
    expect(confirmed.body, JSON.stringify(confirmed.body)).toMatchObject({ ok: true });
    expect(key.counter).toBe(before + 1);
    expect(await c.executor.getApproval(id)).toMatchObject({ state: 'succeeded' });
    expect(await c.executor.breakGlass.reviews(id)).toMatchObject([
      { person: 'cli:ada', reason: 'both approvers unreachable, payroll due', closers: [] },
    ]);
    const entry = (await c.audit.list({ approvalId: id, limit: 100 })).find(
      (e) => e.decision === 'break_glass',
    );
    expect(entry?.error).toBe(
      `break-glass by cli:ada: both approvers unreachable, payroll due (confirmed with passkey ${key.id})`,
    );
    expect(entry?.evidence).toMatchObject({
      kind: 'passkey',
      credentialId: key.id,
      signed: {
        approvalId: id,
        person: 'cli:ada',
        breakGlass: { reason: 'both approvers unreachable, payroll due' },
      },
    });
    // The assertion re-checks offline, from the log alone.
    const report = await verifySignatures(await c.audit.list({ limit: 1000 }));
    expect(report.failures).toEqual([]);
    expect(report.checked).toBeGreaterThan(0);
    // Read as a vote, or with another reason, the same assertion does not stand.
    const log = await c.audit.list({ limit: 1000 });
    const swapped = async (change: Record<string, unknown>) =>
      (await verifySignatures(log.map((e) => (e.seq === entry?.seq ? { ...e, ...change } : e)))).failures.map(
        (f) => f.reason,
      );
    expect(await swapped({ decision: 'approved' })).toEqual(['a break-glass signature on a vote']);
    expect(await swapped({ error: 'break-glass by cli:ada: routine payment' })).toEqual([
      "what was signed is not this entry's break-glass reason",
    ]);
    // The link was spent; its page says where a new one comes from: the CLI, never Slack.
    const spent = await fetch(link);
    expect(spent.status).toBe(410);
    const spentPage = await spent.text();
    expect(spentPage).toContain('the same <code>bankops approvals break-glass</code> command');
    expect(spentPage).not.toContain('Slack');
  });

  it('takes only a reason the audit entry keeps as signed: its signature then re-checks offline', async () => {
    const id = await asked(600);
    await expect(breakGlassLink(id, 'x'.repeat(501))).rejects.toThrow('at most 500');
    await expect(breakGlassLink(id, 'refund card 4111 1111 1111 1111')).rejects.toThrow(
      'the reason must not hold a card number or a token',
    );
    // A proof for a link that could never be issued is refused before its signature is looked at.
    const noLink = await c.executor.breakGlass.breakGlass(id, ada, 'tok Bearer abcdefghijklmnop', undefined, {
      nonce: 'n',
      response: {},
    });
    expect(noLink).toMatchObject({
      status: 'refused',
      reason: 'the reason must not hold a card number or a token',
    });

    const longest = `${'payroll due, both approvers on one flight; '.repeat(12)}`.slice(0, 500);
    const link = await breakGlassLink(id, longest);
    const confirmed = await post(`${link}/confirm`, { response: key.sign(await optionsOf(link)) });
    expect(confirmed.body, JSON.stringify(confirmed.body)).toMatchObject({ ok: true });
    const entry = (await c.audit.list({ approvalId: id, limit: 100 })).find(
      (e) => e.decision === 'break_glass',
    );
    expect(entry?.error).toBe(`break-glass by cli:ada: ${longest.trim()} (confirmed with passkey ${key.id})`);
    const report = await verifySignatures(await c.audit.list({ limit: 1000 }));
    expect(report.failures).toEqual([]);
  });

  it('never takes a vote signature for a break-glass, nor a break-glass signature for a vote', async () => {
    const id = await asked(950);
    const vote = local((await c.runtime.passkeys.approvalLink(id, ada)).url);
    const glass = await breakGlassLink(id);
    const voteSigned = key.sign(await optionsOf(vote));
    const glassSigned = key.sign(await optionsOf(glass));

    const asGlass = await post(`${glass}/confirm`, { response: voteSigned });
    expect(asGlass.body).toMatchObject({ ok: false, line: expect.stringContaining('signed something else') });
    const asVote = await post(`${vote}/vote`, { response: glassSigned });
    expect(asVote.body).toMatchObject({ ok: false, line: expect.stringContaining('signed something else') });
    expect(await c.executor.getApproval(id)).toMatchObject({ state: 'pending', approvals: [] });
    expect(await c.executor.breakGlass.reviews(id)).toEqual([]);

    // The reason is signed too: the same assertion, with the link's nonce, stands for no other reason.
    const reasoned = await breakGlassLink(id, 'the reason on the link');
    const response = key.sign(await optionsOf(reasoned));
    const { challenge: nonce } = c.db
      .prepare(
        "SELECT challenge FROM passkey_links WHERE purpose = 'break_glass' ORDER BY created_at DESC, rowid DESC LIMIT 1",
      )
      .get() as { challenge: string };
    const otherReason = await c.executor.breakGlass.breakGlass(id, ada, 'another reason', undefined, {
      nonce,
      response,
    });
    expect(otherReason.status === 'refused' ? otherReason.reason : '').toContain('signed something else');
    // Nor, with that very nonce, as a vote by the same person on the same approval.
    const asVoteSameNonce = await c.executor.approve(id, ada, undefined, { nonce, response });
    expect(asVoteSameNonce.status === 'refused' ? asVoteSameNonce.reason : '').toContain(
      'signed something else',
    );
    expect(await c.executor.getApproval(id)).toMatchObject({ state: 'pending' });
    const same = await c.executor.breakGlass.breakGlass(id, ada, 'the reason on the link', undefined, {
      nonce,
      response,
    });
    expect(same).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
  });

  it('refuses at confirm what became impossible after the link: a decided approval, a lowered cap', async () => {
    // Rejected by an approver while the page was open.
    const rejected = await asked(800);
    const link = await breakGlassLink(rejected);
    const signed = key.sign(await optionsOf(link));
    expect(await c.executor.reject(rejected, c.approver, 'not this supplier')).toMatchObject({
      status: 'ok',
    });
    const late = await post(`${link}/confirm`, { response: signed });
    expect(late.body).toMatchObject({ ok: false, line: expect.stringContaining('rejected') });
    expect(await c.executor.getApproval(rejected)).toMatchObject({ state: 'rejected' });
    expect(await c.executor.breakGlass.reviews(rejected)).toEqual([]);
    // A page opened after that says why it cannot be used.
    const closed = await asked(700);
    const closedLink = await breakGlassLink(closed);
    await c.executor.reject(closed, c.approver, 'wrong invoice');
    const page = await fetch(closedLink);
    expect(page.status).toBe(409);
    expect(await page.text()).toContain('rejected');

    // The cap lowered below the payout while the page was open.
    const capped = await asked(1000);
    const capLink = await breakGlassLink(capped);
    const capSigned = key.sign(await optionsOf(capLink));
    writeFileSync(
      c.policy.path,
      withStepUp(
        BREAK_GLASS_STEP_UP_POLICY.replace(
          'stepUp: passkey\n  max: { USD: 10000',
          'stepUp: passkey\n  max: { USD: 500',
        ),
      ),
    );
    expect(c.policy.reload()).toEqual({ ok: true });
    try {
      const over = await post(`${capLink}/confirm`, { response: capSigned });
      expect(over.body).toMatchObject({ ok: false, line: expect.stringContaining('at most 500.00 USD') });
      expect(await c.executor.getApproval(capped)).toMatchObject({ state: 'pending' });
      const refusals = await c.audit.list({ approvalId: capped, limit: 100 });
      expect(refusals.filter((e) => e.decision === 'refused').map((e) => e.error)).toContainEqual(
        expect.stringContaining('at most 500.00 USD'),
      );
    } finally {
      writeFileSync(c.policy.path, withStepUp(BREAK_GLASS_STEP_UP_POLICY));
      c.policy.reload();
    }
  });
});
