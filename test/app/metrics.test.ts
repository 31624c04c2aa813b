import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServeMetrics } from '../../src/app/metrics/metrics.js';
import { type RunningServe, startServe } from '../../src/app/serve.js';
import { mcpActor, slackActor } from '../../src/core/actors.js';
import type { ResponseEvent } from '../../src/core/client/index.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { parseScrape, type Scraped, scrape } from '../helpers/prometheus.js';

/**
 * `/metrics` of a real `serve` on loopback, scraped over HTTP before and after a script of calls
 * through the executor: the counters move by exactly what happened, the database's numbers are read
 * at the scrape, and labels stay within closed sets whatever the input.
 */

const SLACK_OFF = { slack: { enabled: false as const, why: 'not in this test' } };

let c: TestCore;
let serve: RunningServe;
const serviceEvents: ResponseEvent[] = [];

beforeAll(async () => {
  const metrics = new ServeMetrics();
  c = await createTestCore({
    observe: {
      observe: metrics.observe,
      onServiceCall: (event) => {
        serviceEvents.push(event);
        metrics.serviceCall(event);
      },
    },
  });
  // No local Slack workspace either (`--no-try`): Slack is off here.
  serve = await startServe({
    runtime: c.runtime,
    host: '127.0.0.1',
    port: 0,
    settings: SLACK_OFF,
    metrics,
    try: false,
  });
});
afterAll(async () => {
  await serve?.close();
  await c?.close();
});

/** Service attempts by `operation/status`, as the client reported them. */
function tally(events: readonly ResponseEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    const key = `${e.operation}/${e.httpStatus ?? e.errorKind}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const delta = (before: Scraped, after: Scraped, name: string, labels: Record<string, string> = {}) =>
  after.value(name, labels) - before.value(name, labels);

describe('/metrics on serve', () => {
  it('moves every counter by exactly what the calls did, and reads the approvals at the scrape', async () => {
    await c.runtime.storage.transaction((tx) => tx.feed.advance('metrics-test', 0, new Date().toISOString()));
    await c.audit.flush();
    const auditBefore = (await c.audit.head()).seq;
    const before = await scrape(serve.url);
    const eventsBefore = serviceEvents.length;

    await c.ok('list_accounts');
    await c.call('list_accounts', {}, slackActor('U0NOBODY'));
    await c.call('no_such_tool', { amount: 5 });
    await c.call('create_payout', { ...PAYOUT, amount: -5 });
    await c.call('list_accounts', {}, mcpActor('unknown-key'));
    const approval = pending(await c.call('create_payout', PAYOUT));
    await c.audit.verify();
    await c.audit.flush();

    const after = await scrape(serve.url);
    const calls = 'bankops_tool_calls_total';
    const cli = { front_end: 'cli' };
    expect(delta(before, after, calls, { tool: 'list_accounts', ...cli, outcome: 'ok' })).toBe(1);
    expect(
      delta(before, after, calls, { tool: 'list_accounts', front_end: 'slack', outcome: 'refused' }),
    ).toBe(1);
    expect(delta(before, after, calls, { tool: 'unknown', ...cli, outcome: 'invalid' })).toBe(1);
    expect(delta(before, after, calls, { tool: 'create_payout', ...cli, outcome: 'invalid' })).toBe(1);
    expect(delta(before, after, calls, { tool: 'list_accounts', front_end: 'mcp', outcome: 'refused' })).toBe(
      1,
    );
    expect(delta(before, after, calls, { tool: 'create_payout', ...cli, outcome: 'pending' })).toBe(1);
    expect(delta(before, after, calls)).toBe(6);
    expect(delta(before, after, 'bankops_tool_call_duration_seconds_count')).toBe(6);
    expect(delta(before, after, 'bankops_tool_call_duration_seconds_count', { tool: 'create_payout' })).toBe(
      2,
    );

    // The service: exactly the attempts the client reported, by operation and status.
    const made = tally(serviceEvents.slice(eventsBefore));
    expect(made.size).toBeGreaterThan(0);
    for (const [key, count] of made) {
      const [operation, status] = key.split('/') as [string, string];
      expect(delta(before, after, 'bankops_service_calls_total', { operation, status }), key).toBe(count);
    }
    expect(delta(before, after, 'bankops_service_calls_total')).toBe(serviceEvents.length - eventsBefore);
    expect(delta(before, after, 'bankops_service_call_duration_seconds_count')).toBe(
      serviceEvents.length - eventsBefore,
    );

    // Read from the database at the scrape.
    expect(delta(before, after, 'bankops_approvals', { state: 'pending' })).toBe(1);
    expect(after.value('bankops_approvals_pending')).toBe(1);
    expect(after.value('bankops_approvals_unresolved')).toBe(0);
    expect(after.value('bankops_approvals_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(after.value('bankops_approvals_oldest_pending_age_seconds')).toBeLessThan(60);
    const head = await c.runtime.storage.read((s) => s.feed.head());
    expect(head).toBeGreaterThan(0);
    expect(after.value('bankops_feed_lag_events', { consumer: 'metrics-test' })).toBe(head);
    expect(delta(before, after, 'bankops_audit_entries_written_total')).toBe(
      (await c.audit.head()).seq - auditBefore,
    );
    expect(before.value('bankops_audit_last_verify_timestamp_seconds')).toBe(0);
    expect(after.value('bankops_audit_last_verify_timestamp_seconds')).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
    expect(after.value('bankops_database_up')).toBe(1);
    // Every metric docs/operations.md lists is in the scrape.
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
    const listed = [...doc.matchAll(/^\| `([a-z0-9_]+)` \| (counter|gauge|histogram) \|/gm)];
    expect(listed.length).toBeGreaterThan(40);
    for (const [, name, type] of listed) expect(after.types.get(name ?? ''), name).toBe(type);
    expect(after.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    // No id, amount or typed text anywhere in the labels.
    const text = after.samples.map((s) => JSON.stringify(s.labels)).join('\n');
    for (const secret of [approval.id, 'no_such_tool', 'unknown-key', 'U0NOBODY', '1000'])
      expect(text).not.toContain(secret);
  });

  it('keeps its label sets bounded over 1,000 calls with random tool names and inputs', async () => {
    const names = c.registry.names();
    const random = (n: number) =>
      Math.random()
        .toString(36)
        .slice(2, 2 + n);
    const typed: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const word = `zz${random(8)}`;
      typed.push(word);
      const pick = i % 4;
      if (pick === 0) await c.call(word, { [word]: word });
      else if (pick === 1) await c.call('get_account', { accountId: word });
      else if (pick === 2) await c.call('create_payout', { ...PAYOUT, amount: -i, purposeCode: word });
      else await c.call(names[i % names.length] ?? 'list_accounts', { [word]: i }, mcpActor(word));
    }
    const after = await scrape(serve.url);
    const tools = new Set(
      after.samples.filter((s) => s.name === 'bankops_tool_calls_total').map((s) => s.labels.tool),
    );
    for (const tool of tools) expect([...names, 'unknown']).toContain(tool);
    const outcomes = new Set(after.samples.map((s) => s.labels.outcome).filter((o) => o !== undefined));
    for (const outcome of outcomes)
      expect(['ok', 'refused', 'invalid', 'pending', 'failed']).toContain(outcome);
    const operations = new Set(
      after.samples.filter((s) => s.name === 'bankops_service_calls_total').map((s) => s.labels.operation),
    );
    expect(operations.size).toBeLessThanOrEqual(30);
    for (const op of operations) expect(op).toMatch(/^[a-z][a-zA-Z]*(\.[a-zA-Z_]+)*$/);
    // Series of bankops's own metrics: bounded by tools × front ends × outcomes, not by the calls.
    const ours = after.samples.filter((s) => s.name.startsWith('bankops_'));
    expect(ours.length).toBeLessThan(2_000);
    const labels = ours.map((s) => Object.values(s.labels).join(' ')).join('\n');
    for (const word of typed) expect(labels).not.toContain(word);
  }, 120_000);
});

describe('who may scrape, and what health says', () => {
  it('wants the bearer key when BANKOPS_METRICS_KEY is set, and answers loopback clients without one otherwise', async () => {
    const key = 'metrics-key-0123456789abcdef';
    const keyed = await startServe({
      runtime: c.runtime,
      host: '127.0.0.1',
      port: 0,
      settings: { ...SLACK_OFF, metricsKey: key },
    });
    try {
      const none = await fetch(`${keyed.url}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="bankops"');
      const wrong = await fetch(`${keyed.url}/metrics`, { headers: { authorization: 'Bearer not-the-key' } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toContain('invalid_token');
      expect(await wrong.text()).not.toContain(key);
      const right = await scrape(keyed.url, key);
      expect(right.types.get('bankops_tool_calls_total')).toBe('counter');
    } finally {
      await keyed.close();
    }
    const open = await fetch(`${serve.url}/metrics`);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toContain('text/plain');
    expect(parseScrape(await open.text()).types.get('bankops_approvals')).toBe('gauge');
  });

  it('says what runs and that the database answers, and is ready once the feed is caught up', async () => {
    const health = await fetch(`${serve.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: 'ok',
      mcp: '/mcp',
      slack: 'off',
      metrics: '/metrics',
      database: 'ok',
      slackWebApi: 'off',
    });
    const ready = await fetch(`${serve.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, started: true, database: 'ok', schema: 'current' });
    const live = await fetch(`${serve.url}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ alive: true });
    // A browser's request for an icon beside the passkey pages is answered, not a 404.
    const icon = await fetch(`${serve.url}/favicon.ico`);
    expect(icon.status).toBe(204);
    expect(icon.headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('is not ready on a database a newer bankops migrated, and ready again once it is this version’s', async () => {
    const ahead = c.db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)');
    ahead.run('zz/999-from-a-newer-bankops', new Date().toISOString());
    try {
      const ready = await fetch(`${serve.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ ready: false, started: true, database: 'ok', schema: 'ahead' });
      expect((await fetch(`${serve.url}/livez`)).status).toBe(200);
    } finally {
      c.db.prepare('DELETE FROM schema_migrations WHERE name = ?').run('zz/999-from-a-newer-bankops');
    }
    expect((await fetch(`${serve.url}/readyz`)).status).toBe(200);
  });

  it('answers 503 with the database unreachable once the database is closed, and the scrape says so and counts the audit entries waiting', async () => {
    const broken = await createTestCore({ sandbox: c.sandbox });
    const served = await startServe({
      runtime: broken.runtime,
      host: '127.0.0.1',
      port: 0,
      settings: SLACK_OFF,
    });
    try {
      expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
      await broken.audit.flush();
      broken.db.close();
      const health = await fetch(`${served.url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'unhealthy', database: 'unreachable' });
      const ready = await fetch(`${served.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ ready: false, database: 'unreachable' });
      expect((await fetch(`${served.url}/livez`)).status).toBe(200);
      expect((await scrape(served.url)).value('bankops_database_up')).toBe(0);
      // A read still answers; its audit entry waits for the database, and the scrape counts it.
      const read = await broken.runtime.executor.execute({
        tool: 'get_balances',
        input: {},
        actor: { id: 'cli:ops', frontEnd: 'cli', cliUser: 'ops' },
      });
      expect(read.status).toBe('ok');
      expect((await scrape(served.url)).value('bankops_audit_waiting_entries')).toBe(1);
    } finally {
      await served.close();
      await broken.runtime.audit.close(0).catch(() => undefined);
      await broken.close().catch(() => undefined);
    }
  });
});
