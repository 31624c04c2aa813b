import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_API_METHODS } from '../../src/app/metrics/labels.js';
import { scrape } from '../helpers/prometheus.js';
import { AUDIT_CHANNEL, type SlackTest, startSlackTest } from '../helpers/slack-app.js';

/** The Slack side of `/metrics` and `/healthz`: Web API calls by method and result, the outbox, readiness. */

let t: SlackTest;
beforeAll(async () => {
  t = await startSlackTest();
});
afterAll(async () => {
  await t?.close();
});

describe('Slack in /metrics and /healthz', () => {
  it('counts every Web API call by method and result, with the outbox backlog', async () => {
    const slack = t.serve.slack;
    if (slack === undefined) throw new Error('Slack is on in this test');
    await slack.approvals.drain();
    t.api.failNext('chat.postMessage', { error: 'channel_not_found' });
    await expect(
      slack.services.call('chat.postMessage', { channel: AUDIT_CHANNEL, text: 'x' }),
    ).rejects.toThrow();
    await slack.services.call('chat.postMessage', { channel: AUDIT_CHANNEL, text: 'y' });

    const scraped = await scrape(t.serve.url);
    for (const method of WEB_API_METHODS) {
      const attempts = t.api.callsOf(method, true).length;
      const ok = t.api.callsOf(method).length;
      expect(scraped.value('bankops_slack_api_calls_total', { method, result: 'ok' }), method).toBe(ok);
      expect(scraped.value('bankops_slack_api_calls_total', { method, result: 'error' }), method).toBe(
        attempts - ok,
      );
    }
    // The daily anchor, the refused post and the one that went through.
    expect(scraped.value('bankops_slack_api_calls_total', { method: 'chat.postMessage' })).toBe(3);
    expect(scraped.value('bankops_slack_outbox_backlog')).toBe(0);

    const health = await fetch(`${t.serve.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      slack: 'http',
      database: 'ok',
      slackWebApi: { token: 'configured', last: 'ok' },
    });
    expect((await fetch(`${t.serve.url}/readyz`)).status).toBe(200);
  });
});
