import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackApp } from '../../src/slack/app.js';
import { sqliteSlackStores } from '../../src/slack/store/sqlite/index.js';
import { runCliHere } from '../helpers/cli.js';
import { manualClock } from '../helpers/clock.js';
import { sqliteOf } from '../helpers/core.js';
import { AUDIT_CHANNEL, BOT_TOKEN, type SlackTest, startSlackTest, USERS } from '../helpers/slack-app.js';
import { textOf } from '../helpers/slack-requests.js';

let t: SlackTest;

beforeAll(async () => {
  t = await startSlackTest();
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
});

const anchorsPosted = () =>
  t.api
    .callsOf('chat.postMessage')
    .filter((c) => c.args.channel === AUDIT_CHANNEL)
    .map((c) => /bankops audit verify --anchor (\d+:[0-9a-f]{64})/.exec(textOf(c.args))?.[1]);

describe('the audit anchor', () => {
  it('is posted to the audit channel at start, once a day whatever the restarts', async () => {
    const [daily] = await t.api.waitFor(() => (anchorsPosted().length > 0 ? anchorsPosted() : undefined));
    expect(daily).toMatch(/^0:0{64}$/);
    // Another process on the same database (a restart, a replica) posts no second one today.
    const replica = createSlackApp({
      config: {
        mode: 'http',
        botToken: BOT_TOKEN,
        signingSecret: 'another-secret-123',
        apiUrl: t.api.url,
        auditChannel: AUDIT_CHANNEL,
      },
      runtime: t.runtime,
      stores: sqliteSlackStores(sqliteOf(t.runtime)),
      defaults: t.runtime.config.defaults,
      outboxPollMs: 50,
    });
    await replica.start();
    await replica.stop();
    // Not posted, nor waiting to be: one daily anchor was ever queued, whichever process sends it.
    const queued = sqliteOf(t.runtime)
      .prepare("SELECT count(*) AS n FROM slack_outbox WHERE dedupe_key LIKE 'audit-anchor:%'")
      .get();
    expect(queued).toEqual({ n: 1 });
    expect(anchorsPosted()).toHaveLength(1);
  });

  it('/bank audit anchor posts the head now; `bankops audit verify --anchor` then detects a cut tail', async () => {
    for (const text of ['balances', 'accounts USD']) {
      const { id } = await t.slack.command(USERS.viewer, text);
      await t.api.answers(id);
    }
    const head = await t.runtime.audit.head();
    const { id } = await t.slack.command(USERS.viewer, 'audit anchor');
    const [answer] = await t.api.answers(id);
    expect(textOf(answer?.body ?? {})).toContain(
      `Posted the audit log's head (entry ${head.seq}) to <#${AUDIT_CHANNEL}>`,
    );
    const anchor = await t.api.waitFor(() => (anchorsPosted().length === 2 ? anchorsPosted()[1] : undefined));
    expect(anchor).toBe(`${head.seq}:${head.hash}`);

    const dbPath = join(t.dir, 'bankops.db');
    const env = { BANKOPS_DB: dbPath };
    const intact = await runCliHere(['audit', 'verify', '--anchor', anchor ?? ''], env);
    expect(intact.code).toBe(0);

    // Someone with the file removes the newest entries: the chain that is left still verifies.
    const db = new Database(dbPath);
    db.exec('DROP TRIGGER audit_log_no_delete');
    db.prepare('DELETE FROM audit_log WHERE seq >= ?').run(head.seq - 1);
    db.close();
    const chainOnly = await runCliHere(['audit', 'verify'], env);
    expect(chainOnly.code).toBe(0);
    const checked = await runCliHere(['audit', 'verify', '--anchor', anchor ?? ''], env);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain('entries were removed from the end');
  });
});

describe('the daily audit anchor on the runtime’s clock', () => {
  it('is posted again at the next UTC midnight, when the clock gets there', async () => {
    const clock = manualClock('2026-11-26T23:59:00Z');
    const day = await startSlackTest({ core: { clock } });
    try {
      const daily = () =>
        day.api
          .callsOf('chat.postMessage')
          .filter((c) => c.args.channel === AUDIT_CHANNEL)
          .map((c) => /Daily anchor of (\d{4}-\d{2}-\d{2})/.exec(textOf(c.args))?.[1]);
      expect(await day.api.waitFor(() => (daily().length > 0 ? daily() : undefined))).toEqual(['2026-11-26']);
      clock.set('2026-11-27T00:00:05Z');
      expect(await day.api.waitFor(() => (daily().length > 1 ? daily() : undefined))).toEqual([
        '2026-11-26',
        '2026-11-27',
      ]);
      expect(day.api.problems).toEqual([]);
    } finally {
      await day.close();
    }
  });
});
