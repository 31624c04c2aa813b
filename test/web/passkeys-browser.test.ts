import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberSandboxPayees } from '../../src/app/sandbox-payees.js';
import { slackActor } from '../../src/core/actors.js';
import { PAYOUT } from '../helpers/approvals.js';
import { launchChromium, pageWithPasskey } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { raw } from '../helpers/sandbox.js';
import { type SlackTest, startSlackTest } from '../helpers/slack-app.js';
import {
  APPROVALS_CHANNEL,
  APPROVERS,
  APPROVERS_GROUP,
  approvalPost,
  approvalsPolicyYaml,
  cliEnvFor,
  directMessages,
  PEOPLE,
  shown,
  waitShown,
  whereIs,
} from '../helpers/slack-approvals.js';
import { buttonsOf, type Payload, textOf } from '../helpers/slack-requests.js';
import { SoftPasskey } from '../helpers/soft-passkey.js';
import { withStepUp } from '../helpers/step-up.js';

/**
 * Approvals confirmed with a passkey, end to end in a real browser: Debian's Chromium with a CDP
 * virtual authenticator enrols from the link `/bank passkey` answers, then approves a payout from the
 * link Approve answers in Slack; the payout runs and the Slack message is edited. A click alone does
 * not count; a replayed or foreign assertion is refused; a re-quote voids a signature given before
 * it; an edited signature in the audit log is named by `bankops audit verify --signatures`.
 */

const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'images');
const APPROVER = APPROVERS[0] ?? '';
const SECOND = APPROVERS[1] ?? '';

let t: SlackTest;
let browser: Browser;
let page: Page;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  t = await startSlackTest({
    policyYaml: withStepUp(approvalsPolicyYaml()),
    config: { approvalsChannel: APPROVALS_CHANNEL },
    core: { background: true, publicUrl: base },
    publicUrl: base,
    port,
  });
  t.api.setGroups({ [APPROVERS_GROUP]: APPROVERS });
  // The payees the sandbox starts with, so the page names them as it does for payees bankops made.
  await rememberSandboxPayees(t.runtime.payees);
  browser = await launchChromium();
  page = (await pageWithPasskey(browser)).page;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  expect(t.api.problems).toEqual([]);
  await t?.close();
});

/**
 * Keeps a screenshot for the docs: written when missing or when BANKOPS_UPDATE_SCREENSHOTS=1, so
 * a test run does not leave the checkout changed every time.
 */
async function screenshot(name: string): Promise<void> {
  const png = await page.screenshot({ fullPage: true });
  expect(png.length).toBeGreaterThan(1000);
  const file = join(SCREENSHOTS, name);
  if (process.env.BANKOPS_UPDATE_SCREENSHOTS === '1' || !existsSync(file)) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    writeFileSync(file, png);
  }
}

const payouts = () => t.sandbox.stats()['payouts.create'] ?? 0;
const urlIn = (message: Payload): string => /"url":"([^"]+)"/.exec(JSON.stringify(message.blocks))?.[1] ?? '';
const payout = (amount: number) =>
  `payout ${amount} USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED`;

/** Types `/bank <text>` as `user`; the last answer. */
async function command(user: string, text: string): Promise<Payload> {
  const { id, response } = await t.slack.command(user, text);
  expect(response.status).toBe(200);
  return (await t.api.answers(id)).at(-1)?.body ?? {};
}

/** Olivia asks for a payout in Slack; the approval id, once its message is posted. */
async function asked(amount: number): Promise<string> {
  const id = /apr_\w+/.exec(textOf(await command(PEOPLE.olivia, payout(amount))))?.[0] ?? '';
  await t.api.waitFor(() => approvalPost(t.api, id));
  return id;
}

/** Clicks Approve on the approval message as `user`; the ephemeral answer. */
async function clickApprove(user: string, id: string): Promise<Payload> {
  const where = whereIs(t.api, id);
  const approve = buttonsOf(shown(t.api, id) ?? {}).find((b) => b.text === 'Approve');
  if (where === undefined || approve === undefined) throw new Error(`no Approve button on ${id}`);
  const { id: clickId, response } = await t.slack.click(user, approve, { channel: where.channel });
  expect(response.status).toBe(200);
  return (await t.api.answers(clickId)).at(-1)?.body ?? {};
}

/** A POST to a page's step as its own script would send it. */
const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

let captured: { url: string; body: string };

describe('passkeys in a real browser', () => {
  it('enrols a passkey from the link /bank passkey answers', async () => {
    const answer = await command(APPROVER, 'passkey');
    const url = urlIn(answer);
    expect(url.startsWith(`${base}/passkeys/enroll/`)).toBe(true);
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    // The person as people read them, not the actor id; the link's end in the reader's zone.
    const enrolBody = (await page.textContent('body')) ?? '';
    expect(enrolBody).toContain(`For Slack user ${APPROVER}.`);
    expect(enrolBody).not.toContain(`slack:${APPROVER}`);
    expect(enrolBody).toMatch(/until \d{4}-\d{2}-\d{2} \d{2}:\d{2} (CET|CEST)\./);
    await page.fill('#name', 'work laptop');
    await screenshot('passkey-enroll.png');
    await page.click('#enroll button');
    await page.waitForSelector('#status.ok');
    expect(await page.textContent('#status')).toContain('Passkey "work laptop" registered');
    expect((await t.runtime.passkeys.list(`slack:${APPROVER}`)).map((p) => p.name)).toEqual(['work laptop']);
    expect((await t.runtime.audit.list({ tool: 'passkey' })).at(-1)).toMatchObject({
      event: 'credential',
      decision: 'enrolled',
      actor: `slack:${APPROVER}`,
    });
  });

  it('counts a Slack click for nothing, then the page signs: the payout runs, the message is edited, the requester told', async () => {
    const id = await asked(1000);
    const before = payouts();
    const answer = await clickApprove(APPROVER, id);
    expect(textOf(answer)).toContain('Not counted yet');
    expect(await t.runtime.executor.getApproval(id)).toMatchObject({ state: 'pending', approvals: [] });
    expect(payouts()).toBe(before);

    // The page alone: its HTML, script and stylesheet, and how soon it paints on loopback.
    let bytes = 0;
    const count = (r: { url(): string; request(): { method(): string }; body(): Promise<Buffer> }) =>
      r.request().method() === 'GET' && r.url().startsWith(base)
        ? r.body().then((b) => {
            bytes += b.length;
          })
        : Promise.resolve();
    const counted: Promise<void>[] = [];
    page.on('response', (r) => counted.push(count(r)));
    const link = urlIn(answer);
    await page.goto(link, { waitUntil: 'load' });
    await Promise.all(counted);
    page.removeAllListeners('response');
    expect(bytes).toBeLessThanOrEqual(60 * 1024);
    // First contentful paint, from navigation start, on loopback: the best of three loads (a page
    // shown changes nothing, the link stays valid), beside that of a bare page loaded the same way
    // in the same run. The machine is shared (other test files, another run of the suite): what
    // it costs every page is not the page's, so the goal of 300 ms is the page's paint over that.
    const paints = await bestPaints(page, link);
    const bare = await bestPaints(page, 'data:text/html,<!doctype html><title>bare</title><p>bare page</p>');
    expect(Math.min(...paints) - Math.min(...bare)).toBeLessThanOrEqual(300);
    process.stdout.write(
      `approval page: ${bytes} bytes; first contentful paint ${paints.map((p) => p.toFixed(0)).join(', ')} ms (a bare page: ${bare.map((p) => p.toFixed(0)).join(', ')} ms)\n`,
    );
    await page.goto(link, { waitUntil: 'load' });

    const body = (await page.textContent('main')) ?? '';
    expect(body).toContain('Pay 1,000.00 USD to');
    expect(body).not.toContain('a payee bankops did not create');
    expect(body).toContain('total debit');
    expect(body).toContain('available now');
    expect(body).toContain('Executes only if a fresh quote debits at most');
    // Times read in the approver's zone, never as ISO strings.
    expect(body).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} (CET|CEST|GMT\+1|GMT\+2)/);
    expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    await screenshot('passkey-approve.png');

    const vote = page.waitForRequest((r) => r.url().endsWith('/vote'));
    await page.click('#approve');
    await page.waitForSelector('#status.ok');
    expect(await page.textContent('#status')).toContain(`Executed: create_payout ran for ${id}`);
    // The header shows where it stands now, no longer "Waiting for 1 more approver".
    expect(await page.textContent('.state')).not.toContain('Waiting for');
    const request = await vote;
    captured = { url: request.url(), body: request.postData() ?? '' };

    expect(payouts()).toBe(before + 1);
    expect((await t.runtime.executor.getApproval(id))?.approvals).toEqual([
      expect.objectContaining({ person: `slack:${APPROVER}`, signed: true }),
    ]);
    await waitShown(t.api, id, /Sent|Completed/);
    await t.api.waitFor(() => directMessages(t.api, PEOPLE.olivia).find((m) => m.includes(id)));
  });

  it('refuses the same assertion again, and on a link for another approval', async () => {
    const again = await post(captured.url, captured.body);
    expect(again.status).toBe(410);
    expect(((await again.json()) as { error: string }).error).toContain('already used');

    const other = await asked(1001);
    const link = urlIn(await clickApprove(APPROVER, other));
    expect((await post(`${link}/options`, { attempt: 1 })).status).toBe(200);
    const foreign = await post(`${link}/vote`, captured.body);
    expect(await foreign.json()).toMatchObject({
      ok: false,
      line: expect.stringContaining('signed something else'),
    });
    expect(await t.runtime.executor.getApproval(other)).toMatchObject({ state: 'pending', approvals: [] });
  });

  it('answers Approve on the App Home with the same link, at the top of the tab', async () => {
    const id = await asked(1002);
    const approve = buttonsOf(shown(t.api, id) ?? {}).find((b) => b.text === 'Approve');
    const published = t.api.callsOf('views.publish').length;
    await t.slack.click(APPROVER, approve ?? { action_id: '', value: '' }, { home: true });
    const home = await t.api.waitFor(() => t.api.callsOf('views.publish')[published]);
    expect(textOf(home.args.view)).toContain('Not counted yet');
    expect(JSON.stringify(home.args.view)).toContain(`${base}/approve/`);
    expect(await t.runtime.executor.getApproval(id)).toMatchObject({ state: 'pending', approvals: [] });
  });

  it('voids a signature given before a re-quote', async () => {
    // A second approver with a passkey of their own, enrolled through the same pages.
    const second = slackActor(SECOND, [APPROVERS_GROUP]);
    const soft = new SoftPasskey(base);
    const enrol = (await t.runtime.passkeys.enrolLink(`slack:${SECOND}`, second)).url;
    const options = (await (await post(`${enrol}/options`, {})).json()) as { challenge: string };
    expect((await post(`${enrol}/finish`, { name: 'soft', response: soft.register(options) })).status).toBe(
      200,
    );

    const opened = await t.runtime.executor.execute({
      tool: 'create_payout',
      input: { ...PAYOUT, destinationAssetCode: 'EUR', side: 'TARGET' },
      actor: slackActor(PEOPLE.olivia),
    });
    if (opened.status !== 'pending_approval') throw new Error(JSON.stringify(opened));
    const id = opened.approvalId;
    await t.api.waitFor(() => approvalPost(t.api, id));

    // The browser signs attempt 1; its vote is held on the way while the quote changes.
    await page.goto(urlIn(await clickApprove(APPROVER, id)));
    let arrived: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let release: () => void = () => undefined;
    const go = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/vote$/, async (route) => {
      arrived();
      await go;
      await route.continue();
    });
    await page.click('#approve');
    await held;

    const moved = await raw(t.sandbox, 'POST', '/_sandbox/banking/rates', {
      headers: { 'content-type': 'application/json' },
      body: { rates: { EUR: 1.085 * 1.1 } },
    });
    expect(moved.status).toBe(200);
    const link = (await t.runtime.passkeys.approvalLink(id, second)).url;
    const secondOptions = (await (await post(`${link}/options`, { attempt: 1 })).json()) as {
      challenge: string;
    };
    const sentBack = (await (await post(`${link}/vote`, { response: soft.sign(secondOptions) })).json()) as {
      line: string;
    };
    expect(sentBack.line).toContain('went back to the approvers (attempt 2)');

    release();
    await page.waitForSelector('#status.failed');
    expect(await page.textContent('#status')).toContain('signed something else than what would run now');
    expect(await t.runtime.executor.getApproval(id)).toMatchObject({
      state: 'pending',
      attempt: 2,
      approvals: [],
    });
    await page.unroute(/\/vote$/);
  });

  it('bankops audit verify --signatures re-checks every signed vote and names one whose signature was edited', async () => {
    const env = cliEnvFor(t, 'auditor');
    const clean = await runCli(['audit', 'verify', '--signatures'], env);
    expect(clean.stdout).toMatch(
      /passkey signatures \(votes, break-glass\): (\d+) checked, \1 verify, 0 fail/,
    );
    expect(clean.code).toBe(0);

    const db = new Database(env.BANKOPS_DB ?? '');
    let seq = 0;
    try {
      const row = db
        .prepare('SELECT seq, evidence FROM audit_log WHERE evidence IS NOT NULL ORDER BY seq LIMIT 1')
        .get() as { seq: number; evidence: string };
      seq = row.seq;
      const evidence = JSON.parse(row.evidence) as { assertion: { signature: string } };
      const signature = Buffer.from(evidence.assertion.signature, 'base64url');
      signature[10] = (signature[10] ?? 0) ^ 0xff;
      evidence.assertion.signature = signature.toString('base64url');
      db.exec('DROP TRIGGER audit_log_no_update');
      db.prepare('UPDATE audit_log SET evidence = ? WHERE seq = ?').run(JSON.stringify(evidence), seq);
    } finally {
      db.close();
    }
    const tampered = await runCli(['audit', 'verify', '--signatures'], env);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain(`signature FAILS at entry ${seq}`);
    expect(tampered.stdout).toContain(`audit log BROKEN at entry ${seq}`);
  });
});

/** First contentful paint of three loads of `url` in `page`, from navigation start, in ms. */
async function bestPaints(page: Page, url: string): Promise<number[]> {
  const paints: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    await page.goto(url, { waitUntil: 'load' });
    // The entry may be recorded a little after `load`.
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    paints.push(
      await page.evaluate(
        () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      ),
    );
  }
  return paints;
}
