import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppRequests, slackSignature } from '../../src/try/requests.js';
import { signature } from '../helpers/slack-requests.js';
import { EventReader, startTryServe, type TryTest } from '../helpers/try-workspace.js';

/**
 * The local Slack workspace on `bankops serve`'s listener, over HTTP: where it is and is not, who
 * may use it (this machine, its own page), and that what it sends the Slack app is signed as Slack
 * signs it and passes the app's own check.
 */

let t: TryTest;
beforeAll(async () => {
  t = await startTryServe();
});
afterAll(() => t.close());

const origin = () => new URL(t.page).origin;
const ui = (what: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.page}/ui/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: origin(), ...headers },
    body: JSON.stringify(body),
  });

describe('the local workspace', () => {
  it('is named in the banner and served with the passkey pages’ policy, under 100 KB', async () => {
    expect(t.serve.banner.join('\n')).toContain(`Slack: a local workspace in the browser at ${t.page}`);
    expect(t.serve.banner.join('\n')).not.toContain('Slack is off');
    let bytes = 0;
    for (const path of ['', '/page.js', '/page.css']) {
      const response = await fetch(`${t.page}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      bytes += (await response.arrayBuffer()).byteLength;
    }
    expect(bytes).toBeLessThan(100 * 1024);
  });

  it('answers only at a loopback name, and takes what people do only from its own page', async () => {
    // A page of another site that points its own name at 127.0.0.1 (DNS rebinding) sends that Host.
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(t.page, { headers: { host: 'attacker.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(403);
    const foreign = await ui(
      'command',
      { user: 'U0OLIVIA', channel: 'C0PAYMENTS', text: '/bank balances' },
      {
        origin: 'http://attacker.example',
      },
    );
    expect(foreign.status).toBe(403);
    const noOrigin = await fetch(`${t.page}/ui/home`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"U0OLIVIA"}',
    });
    expect(noOrigin.status).toBe(403);
    expect((await ui('home', { user: 'U0NOBODY' })).status).toBe(400);
  });

  it('answers the app’s Web API calls only with the bot token', async () => {
    const call = (authorization?: string) =>
      fetch(`${t.page}/api/chat.postMessage`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: 'channel=C0PAYMENTS&text=hello',
      }).then((r) => r.json());
    expect(await call()).toEqual({ ok: false, error: 'not_authed' });
    expect(await call('Bearer xoxb-guessed')).toEqual({ ok: false, error: 'invalid_auth' });
  });

  it('signs as Slack does: a command reaches the app, and one signed with another secret is refused', async () => {
    expect(slackSignature('secret', 1_700_000_000, 'a=b')).toBe(signature('secret', 1_700_000_000, 'a=b'));
    const stream = await EventReader.open(`${t.page}/events?user=U0VERA`);
    try {
      await stream.next((e) => e.event === 'snapshot');
      expect(
        (await ui('command', { user: 'U0VERA', channel: 'C0PAYMENTS', text: '/bank balances' })).status,
      ).toBe(200);
      const answer = await stream.next(
        (e) => e.event === 'unit' && String(e.data.html).includes('250,000.00 USD'),
        10_000,
      );
      expect(answer.data.html).toContain('Only visible to you');
    } finally {
      stream.close();
    }
    const forged = new AppRequests({
      requestUrl: `${t.serve.url}/slack/events`,
      signingSecret: 'not-the-app-secret',
    });
    const refused = await forged.event({ type: 'app_home_opened', user: 'U0VERA', tab: 'home' });
    expect(refused?.status).toBe(401);
  });

  it('is not served with --no-try', async () => {
    const off = await startTryServe({ noTry: true });
    try {
      expect((await fetch(off.page)).status).toBe(404);
      expect(off.serve.banner.join('\n')).toContain('no local Slack workspace at /try/slack: --no-try');
      expect(off.serve.slack).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
