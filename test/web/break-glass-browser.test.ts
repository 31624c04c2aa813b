import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServe, startServe } from '../../src/app/serve.js';
import { cliActor } from '../../src/core/actors.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { BREAK_GLASS_STEP_UP_POLICY } from '../helpers/break-glass.js';
import { launchChromium, pageWithPasskey } from '../helpers/browser.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { freePort } from '../helpers/ports.js';

/**
 * Break-glass confirmed with a passkey in a real browser: Debian's Chromium with a CDP virtual
 * authenticator enrols a passkey for ada, opens the break-glass link the CLI would print, reads the
 * BREAK-GLASS page and confirms it with the passkey; the payout runs and its review opens.
 */

let c: TestCore;
let serve: RunningServe;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  c = await createTestCore({ policyYaml: BREAK_GLASS_STEP_UP_POLICY, publicUrl: origin });
  serve = await startServe({
    runtime: c.runtime,
    host: '127.0.0.1',
    port,
    settings: { slack: { enabled: false, why: 'not in this test' }, publicUrl: origin },
  });
  browser = await launchChromium();
  page = (await pageWithPasskey(browser)).page;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await serve?.close();
  await c?.close();
});

describe('break-glass in a real browser', () => {
  it('enrols, shows the BREAK-GLASS page, and runs the payout once the passkey confirms it', async () => {
    await page.goto((await c.runtime.passkeys.enrolLink('cli:ada', c.operator)).url);
    await page.fill('#name', 'laptop');
    await page.click('#enroll button');
    await page.waitForSelector('#status.ok');

    const id = pending(await c.call('create_payout', { ...PAYOUT, amount: 900 })).id;
    const link = await c.runtime.passkeys.breakGlassLink(id, cliActor('ada'), 'approvers on a flight');
    const response = await page.goto(link.url);
    expect(response?.status()).toBe(200);
    const body = (await page.textContent('main')) ?? '';
    expect(body).toContain('BREAK-GLASS');
    expect(body).toContain('approvers on a flight');
    expect(body).toContain('10,000.00 USD');
    expect(body).toContain('900.00 USD + fees');
    expect(await c.executor.getApproval(id)).toMatchObject({ state: 'pending' });

    await page.click('#break-glass');
    await page.waitForSelector('#status.ok');
    expect(await page.textContent('#status')).toContain('Executed');
    expect(await page.isDisabled('#break-glass')).toBe(true);
    expect(await c.executor.getApproval(id)).toMatchObject({ state: 'succeeded' });
    expect((await c.executor.approvalHistory(id)).map((e) => e.kind)).toContain('break_glass');
    expect(await c.executor.breakGlass.reviews(id)).toMatchObject([
      { person: 'cli:ada', reason: 'approvers on a flight', closers: [] },
    ]);
    const entry = (await c.audit.list({ approvalId: id, limit: 100 })).find(
      (e) => e.decision === 'break_glass',
    );
    expect(entry?.error).toMatch(
      /^break-glass by cli:ada: approvers on a flight \(confirmed with passkey \S+\)$/,
    );
  });
});
