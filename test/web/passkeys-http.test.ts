import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServe, startServe } from '../../src/app/serve.js';
import { loggablePath } from '../../src/web/http.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { freePort } from '../helpers/ports.js';
import { enrolSoftPasskey } from '../helpers/soft-passkey.js';
import { stepUpPolicyYaml } from '../helpers/step-up.js';

/**
 * The passkey pages' HTTP rules on `bankops serve`'s listener: a strict Content-Security-Policy and
 * no caching or Referer on every answer, GET for pages and POST (from the page's own origin, JSON)
 * for every step, unknown or spent links said plainly, requests limited per client, tokens cut from
 * logged paths.
 */

let c: TestCore;
let serve: RunningServe;
let base: string;
let origin: string;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  c = await createTestCore({ policyYaml: stepUpPolicyYaml(), publicUrl: origin });
  serve = await startServe({
    runtime: c.runtime,
    host: '127.0.0.1',
    port,
    settings: { slack: { enabled: false, why: 'not in this test' }, publicUrl: origin },
  });
  base = serve.url;
  // The approver's passkey, so approval links can be made for them.
  await enrolSoftPasskey(c.runtime.passkeys, 'cli:approver', c.operator, origin);
});
afterAll(async () => {
  await serve?.close();
  await c?.close();
});

const approvalLink = async (): Promise<string> => {
  const approval = pending(await c.call('create_payout', { ...PAYOUT, amount: 700 }));
  const url = (await c.runtime.passkeys.approvalLink(approval.id, c.approver)).url;
  return `${base}${new URL(url).pathname}`;
};

describe('the passkey pages over HTTP', () => {
  it('answers with a strict CSP, no caching and no Referer, and serves its own script', async () => {
    const enrol = (await c.runtime.passkeys.enrolLink('cli:approver', c.operator)).url;
    const page = await fetch(`${base}${new URL(enrol).pathname}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|style=|https?:\/\/(?!localhost)/);
    const script = await fetch(`${base}/passkeys/assets/passkey-page.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.text()).length).toBeGreaterThan(1000);
  });

  it('takes steps only as POST, from its own origin, as JSON', async () => {
    const link = await approvalLink();
    expect((await fetch(`${link}/vote`)).status).toBe(405);
    const json = { 'content-type': 'application/json' };
    expect((await fetch(`${link}/options`, { method: 'POST', headers: json, body: '{}' })).status).toBe(403);
    expect(
      (
        await fetch(`${link}/options`, {
          method: 'POST',
          headers: { ...json, origin: 'https://evil.example' },
          body: '{}',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await fetch(`${link}/options`, {
          method: 'POST',
          headers: { origin, 'content-type': 'text/plain' },
          body: '{}',
        })
      ).status,
    ).toBe(415);
    // The listener's one body reader: at most 32 KB, a JSON object.
    const post = (body: string) =>
      fetch(`${link}/options`, { method: 'POST', headers: { ...json, origin }, body });
    expect((await post(JSON.stringify({ pad: 'x'.repeat(40_000) }))).status).toBe(413);
    for (const body of ['[1]', 'not json']) {
      const refused = await post(body);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: 'the body is not a JSON object' });
    }
    const ok = await fetch(`${link}/options`, {
      method: 'POST',
      headers: { ...json, origin },
      body: JSON.stringify({ attempt: 1 }),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
  });

  it('rejects from the page with a reason, and the link is spent', async () => {
    const link = await approvalLink();
    const headers = { 'content-type': 'application/json', origin };
    const blank = await fetch(`${link}/reject`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ reason: ' ' }),
    });
    expect(await blank.json()).toMatchObject({ ok: false, line: expect.stringContaining('needs a reason') });
    const again = await fetch(`${link}/reject`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ reason: 'wrong payee' }),
    });
    expect(again.status).toBe(410);
    const fresh = await approvalLink();
    const rejected = await fetch(`${fresh}/reject`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ reason: 'wrong payee' }),
    });
    // The page's header then shows the final state, not the "Waiting for…" it was loaded with.
    expect(await rejected.json()).toMatchObject({
      ok: true,
      line: expect.stringContaining('Rejected'),
      state: expect.stringMatching(/^Rejected by .*: wrong payee$/),
    });
  });

  it('says plainly when a link is unknown, and cuts tokens from logged paths', async () => {
    const unknown = await fetch(`${base}/approve/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('this link is not valid');
    expect(loggablePath('/approve/abcDEF123/vote')).toBe('/approve/…/vote');
    expect(loggablePath('/passkeys/enroll/abcDEF123')).toBe('/passkeys/enroll/…');
  });

  it('limits requests per client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 70; i += 1) statuses.push((await fetch(`${base}/approve/${'y'.repeat(43)}`)).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(60);
  });
});
