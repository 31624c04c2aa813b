import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { launchChromium, pageWithPasskey } from '../helpers/browser.js';
import { freePort } from '../helpers/ports.js';
import { startTryServe, type TryTest } from '../helpers/try-workspace.js';

/**
 * The local Slack workspace in Debian's Chromium, as the README walks a new user through it: a
 * payout asked for with `/bank payout …` (its form filled and submitted), approved by an approver
 * who switched user, the message edited in place, the sandbox clock moved until the payout
 * settles; the App Home; a reject with a reason (refused inline when blank); and a conversion that
 * needs a passkey, handed over from the workspace to the passkey pages. One browser, two pages.
 *
 * BANKOPS_TRY_SHOTS=<dir> keeps screenshots of the walkthrough there (docs/images/try-*.png are
 * four of them).
 */

const SHOTS = process.env.BANKOPS_TRY_SHOTS;

/** The default policy, with conversions confirmed by a passkey (step-up) and payouts as shipped. */
function policyYaml(): string {
  const policy = parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8'),
  ) as {
    rules: { name?: string; approval?: Record<string, unknown> }[];
  };
  for (const rule of policy.rules)
    if (rule.name === 'conversions-and-transfers' && rule.approval !== undefined)
      rule.approval.stepUp = 'passkey';
  return stringify(policy);
}

let t: TryTest;
let browser: Browser;
let page: Page;
let passkeyPage: Page;

beforeAll(async () => {
  const port = await freePort();
  const publicUrl = `http://localhost:${port}`;
  t = await startTryServe({ policyYaml: policyYaml(), port, publicUrl });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
  passkeyPage = (await pageWithPasskey(browser)).page;
  if (SHOTS !== undefined) mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  expect(t?.serve.workspace?.unsupported()).toEqual([]);
  await browser?.close();
  await t?.close();
});

async function shot(name: string): Promise<void> {
  if (SHOTS !== undefined) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Who the page is: the user switcher, then the snapshot of what they see. */
async function becomes(name: string, channel: string): Promise<void> {
  const value = await page.locator('#who option', { hasText: name }).getAttribute('value');
  await page.selectOption('#who', value ?? '');
  await page.locator(`#who option[value="${value}"][selected]`).waitFor({ state: 'attached' });
  await open(channel);
}

const open = (channel: string) => page.locator('nav button', { hasText: channel }).click();

async function type(text: string): Promise<void> {
  await page.fill('#compose', text);
  await page.keyboard.press('Enter');
}

/** The unit of the current channel whose text has `words` (the last such). */
const unit = (words: string | RegExp): Locator =>
  page.locator('.list:not([hidden]) article', { hasText: words }).last();

/** An approval's message in #approvals: the first unit naming it (answers to clicks come after). */
const posted = (id: string): Locator => page.locator('.list:not([hidden]) article', { hasText: id }).first();

let approvalId = '';

describe('the local Slack workspace in a browser', () => {
  it('walks the README: /bank payout, its form, Approve as an approver, the message edited, settled', async () => {
    await page.goto(t.page);
    await page.waitForSelector('#who option[selected]', { state: 'attached' });
    await open('payments');
    await page.fill('#compose', '/bank pay');
    await expect
      .poll(() => page.locator('#completions li').first().textContent())
      .toContain('/bank payout <amount> <CUR> to <beneficiary> from <account>');
    await page.keyboard.press('Tab');
    expect(await page.inputValue('#compose')).toBe('/bank payout ');
    await shot('1-completions');
    await type('/bank payout 120 USD to ben_de_swift_0001 from acc_usd_0001');

    // A SWIFT payout needs its purpose: the app opens its form, filled with what was typed.
    const form = page.locator('form.modal');
    await form.waitFor();
    expect(await form.locator('h2').textContent()).toBe('Send a payout');
    expect(await form.locator('input[name="beneficiaryId"]').inputValue()).toBe('ben_de_swift_0001');
    await form.locator('select[name="purposeCode"]').selectOption('GOODS_PURCHASED');
    await shot('2-form');
    await form.locator('button[type="submit"]').click();
    await form.waitFor({ state: 'detached' });
    const waiting = unit('Waiting for approval');
    await waiting.waitFor();
    expect(await waiting.textContent()).toContain('Only visible to you');
    approvalId = /apr_[0-9a-f]+/.exec((await waiting.textContent()) ?? '')?.[0] ?? '';
    expect(approvalId).not.toBe('');
    await shot('3-waiting');

    // The requester cannot approve their own request: separation of duties, seen.
    await open('approvals');
    const message = posted(approvalId);
    await message.locator('button', { hasText: 'Approve' }).click();
    await unit(/requested this call and cannot approve it|cannot approve/).waitFor();

    await becomes('Amira', 'approvals');
    await expect.poll(() => message.textContent()).toContain('Waiting for 1 more approver');
    expect(await message.locator('.mention', { hasText: '@Olivia Okafor' }).count()).toBeGreaterThan(0);
    await shot('4-approval');
    await message.locator('button', { hasText: 'Approve' }).click();
    await expect.poll(() => message.textContent(), { timeout: 15_000 }).toContain('PENDING');
    expect(await message.textContent()).toContain('(edited)');
    expect(await message.locator('button', { hasText: 'Approve' }).count()).toBe(0);
    await shot('5-approved');

    // Settlement takes two minutes of sandbox time: move the sandbox's clock from the page.
    await page.click('[data-advance="120"]');
    await expect.poll(() => page.textContent('#clock')).toContain('(+2 min)');
    await expect.poll(() => message.textContent(), { timeout: 15_000 }).toContain('COMPLETED');
    await message.locator('details.thread summary').click();
    expect(await message.locator('details.thread').textContent()).toContain('Amira Haddad');
    await shot('6-settled');

    // The requester hears how it ended, in the app's messages.
    await becomes('Olivia', 'bankops');
    await expect.poll(() => unit(approvalId).textContent()).toContain('COMPLETED');
    expect(await page.locator('.unsupported').count()).toBe(0);
  });

  it('shows the App Home: the requester’s own approvals waiting, with Cancel, and what they may do', async () => {
    await open('payments');
    await type('/bank payout 130 USD to ben_de_swift_0001 from acc_usd_0001 purposeCode=GOODS_PURCHASED');
    const waiting = unit(/Waiting for approval[\s\S]*130\.00 USD/);
    await waiting.waitFor();
    approvalId = /apr_[0-9a-f]+/.exec((await waiting.textContent()) ?? '')?.[0] ?? '';
    await open('bankops');
    await page.click('[data-tab="home"]');
    const home = page.locator('#home .home-view');
    await expect.poll(() => home.textContent()).toContain('Yours, waiting for others (1)');
    expect(await home.textContent()).toContain('What you can do with /bank');
    expect(await home.locator('button', { hasText: 'Cancel' }).count()).toBe(1);
    await shot('7-home');
    await page.click('[data-tab="messages"]');
  });

  it('rejects with a reason: a blank one is refused in the modal, then the message says who and why', async () => {
    await becomes('Tomás', 'approvals');
    const message = posted(approvalId);
    await message.locator('button', { hasText: 'Reject' }).click();
    const form = page.locator('form.modal');
    await form.waitFor();
    await form.locator('textarea[name="reason"]').fill('   ');
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => form.locator('.error').textContent()).toContain('Spaces alone are not a reason');
    await form.locator('textarea[name="reason"]').fill('wrong amount: the invoice says 103 USD');
    await shot('8-reject');
    await form.locator('button[type="submit"]').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => message.textContent()).toContain('Rejected by @Tomás Ruiz: wrong amount');
    expect((await t.runtime.executor.getApproval(approvalId))?.state).toBe('rejected');
  });

  it('hands a step-up approval over to the passkey page, and the message shows it ran', async () => {
    // Amira registers a passkey from the link /bank passkey answers (only she sees it).
    await becomes('Amira', 'bankops');
    await type('/bank passkey');
    const enrol = unit('Register a passkey').locator('a', { hasText: 'Register a passkey' });
    await enrol.waitFor();
    expect(await enrol.getAttribute('target')).toBe('_blank');
    await passkeyPage.goto((await enrol.getAttribute('href')) ?? '');
    await passkeyPage.fill('#name', 'laptop');
    await passkeyPage.click('#enroll button');
    await passkeyPage.waitForSelector('#status.ok');

    await becomes('Olivia', 'payments');
    await type('/bank convert 100 USD to EUR');
    const waiting = unit(/Waiting for approval[\s\S]*100\.00 USD/);
    await waiting.waitFor();
    const id = /apr_[0-9a-f]+/.exec((await waiting.textContent()) ?? '')?.[0] ?? '';

    await becomes('Amira', 'approvals');
    await posted(id).locator('button', { hasText: 'Approve' }).click();
    const link = unit('Not counted yet').locator('a', { hasText: 'Approve with passkey' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${new URL(t.page).origin}/approve/`));
    await shot('9-step-up');
    expect((await t.runtime.executor.getApproval(id))?.approvals).toEqual([]);
    await passkeyPage.goto((await link.getAttribute('href')) ?? '');
    await passkeyPage.click('#approve');
    await passkeyPage.waitForSelector('#status.ok');
    await expect.poll(() => posted(id).textContent(), { timeout: 15_000 }).toContain('Result:');
    expect((await t.runtime.executor.getApproval(id))?.approvals).toMatchObject([{ signed: true }]);
  });
});
