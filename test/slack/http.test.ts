import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../helpers/sandbox.js';
import { SIGNING_SECRET, type SlackTest, startSlackTest, USERS } from '../helpers/slack-app.js';
import { signature, textOf } from '../helpers/slack-requests.js';

// Production mode: the answer to Slack goes out as soon as the listener acknowledges.
let t: SlackTest;

beforeAll(async () => {
  t = await startSlackTest();
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
});

describe('/slack/events', () => {
  it('makes no Web API call before the first request (it starts offline)', () => {
    expect(t.api.calls).toEqual([]);
  });

  it('refuses a bad signature, a timestamp more than 5 minutes away and unsigned requests with 401, running nothing', async () => {
    const before = (await t.runtime.audit.head()).seq;
    const forged = await t.slack.command(USERS.operator, 'balances', { secret: 'not-the-signing-secret' });
    const stale = await t.slack.command(USERS.operator, 'balances', {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    const future = await t.slack.command(USERS.operator, 'balances', {
      timestamp: Math.floor(Date.now() / 1000) + 301,
    });
    const unsigned = await fetch(`${t.serve.url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'command=%2Fbank&text=balances&user_id=U0OPERATOR',
    });
    for (const { response } of [forged, stale, future]) expect(response.status).toBe(401);
    expect(unsigned.status).toBe(401);
    // A body changed after signing does not pass either.
    const ts = Math.floor(Date.now() / 1000);
    const tampered = await fetch(`${t.serve.url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(ts),
        'x-slack-signature': signature(SIGNING_SECRET, ts, 'text=help'),
      },
      body: 'text=balances',
    });
    expect(tampered.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await t.runtime.audit.head()).seq).toBe(before);
    for (const { id } of [forged, stale, future]) expect(t.api.answersTo(id)).toEqual([]);
  });

  it('answers Slack’s URL verification and SSL check', async () => {
    const challenge = await t.slack.post(
      JSON.stringify({ type: 'url_verification', challenge: 'c-123' }),
      'application/json',
    );
    expect(await challenge.json()).toEqual({ challenge: 'c-123' });
    const ssl = await t.slack.post('ssl_check=1&token=x', 'application/x-www-form-urlencoded');
    expect(ssl.status).toBe(200);
  });

  it('acknowledges within 3 s with a 5 s service, says it is working, then replaces that with the answer', async () => {
    const fault = await raw(t.sandbox, 'POST', '/_sandbox/faults', {
      headers: { 'content-type': 'application/json' },
      body: { path: '/svc/banking/api/v1/accounts/balances', latencyMs: 5_000, times: 1 },
    });
    expect(fault.status).toBe(200);
    const started = Date.now();
    const { id, response } = await t.slack.command(USERS.viewer, 'balances');
    const ackMs = Date.now() - started;
    expect(response.status).toBe(200);
    expect(ackMs).toBeLessThan(3_000);
    const [working, answer] = await t.api.answers(id, 2, 10_000);
    expect(textOf(working?.body ?? {})).toContain('Working on `get_balances`');
    expect((working?.at ?? 0) - started).toBeLessThan(2_500);
    expect(answer?.body.replace_original).toBe(true);
    expect(textOf(answer?.body ?? {})).toContain('Balances');
    expect((answer?.at ?? 0) - started).toBeGreaterThanOrEqual(4_900);
  }, 15_000);

  it('handles an Events API event once: a retry Slack sends (X-Slack-Retry-Num) is acknowledged, not processed', async () => {
    const event = {
      type: 'app_home_opened',
      user: USERS.viewer,
      channel: 'D0HOME',
      tab: 'home',
      event_ts: '1.1',
    };
    const first = await t.slack.event(event, { eventId: 'Ev0HOME1' });
    expect(first.status).toBe(200);
    await t.api.waitFor(() => t.api.callsOf('views.publish').length === 1);
    const retry = await t.slack.event(event, { eventId: 'Ev0HOME1', retryNum: 1 });
    const again = await t.slack.event(event, { eventId: 'Ev0HOME1', retryNum: 2 });
    expect(retry.status).toBe(200);
    expect(again.status).toBe(200);
    const other = await t.slack.event(event, { eventId: 'Ev0HOME2' });
    expect(other.status).toBe(200);
    await t.api.waitFor(() => t.api.callsOf('views.publish').length === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const published = t.api.callsOf('views.publish');
    expect(published).toHaveLength(2);
    expect(published[0]?.args.user_id).toBe(USERS.viewer);
    expect(textOf(published[0]?.args.view ?? {})).toContain('/bank balances');
  });

  it('serves its health and 404s what it does not know', async () => {
    const health = await fetch(`${t.serve.url}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', slack: 'http' });
    expect((await fetch(`${t.serve.url}/nowhere`)).status).toBe(404);
    expect((await fetch(`${t.serve.url}/slack/events`)).status).toBe(405);
    expect(t.api.callsOf('auth.test')).toEqual([]);
  });
});
