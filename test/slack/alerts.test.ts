import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/core/client/index.js';
import { Scheduler } from '../../src/core/schedule/scheduler.js';
import { balanceAlertsJob } from '../../src/slack/alerts/job.js';
import { injectFault } from '../helpers/client-http.js';
import { manualClock } from '../helpers/clock.js';
import { clientFor, raw } from '../helpers/sandbox.js';
import { type SlackTest, startSlackTest, USERS } from '../helpers/slack-app.js';
import { textOf } from '../helpers/slack-requests.js';

// Balance alerts through the real app: `/bank alert …` over signed requests, the check as the
// scheduler runs it on a manual clock (no sleeps), posts through the outbox to the Web API
// stand-in, the balance moved at the sandbox by conversions.

const FIVE_MINUTES = 5 * 60_000;
const TREASURY = 'C0TREASURY';
const FX = 'C0FX';
const clock = manualClock('2026-11-26T12:00:00Z');
let t: SlackTest;
let service: ServiceClient;

beforeAll(async () => {
  t = await startSlackTest({ core: { clock } });
  service = clientFor(t.sandbox);
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await service?.close();
  await t?.close();
});

/** Moves `amount` of one currency into another at the sandbox (its balance falls or rises at once). */
async function convert(amount: number, from: string, to: string): Promise<void> {
  const companyCode = t.runtime.config.defaults.companyCode;
  const quote = await service.conversions.quote({
    companyCode,
    sourceAssetCode: from,
    targetAssetCode: to,
    amount,
    side: 'SOURCE',
  });
  await service.conversions.create({ companyCode, quoteId: quote.quoteId });
}

const balanceOf = async (currency: string): Promise<number> => {
  const { balances } = await service.accounts.balances({
    companyCode: t.runtime.config.defaults.companyCode,
  });
  return balances.find((b) => b.currency === currency)?.availableBalance ?? 0;
};

/** The next slot of the check: the clock moves one interval and the run it starts is waited for. */
async function nextCheck(): Promise<void> {
  clock.advance(FIVE_MINUTES);
  await t.runtime.scheduler.runAll();
  await t.serve.slack?.services.outbox.settled();
}

const reads = (): number => t.sandbox.stats()['accounts.balances'] ?? 0;

/** The texts posted to a channel, in order (sent by the outbox). */
const postedTo = (channel: string): string[] =>
  t.api
    .callsOf('chat.postMessage')
    .filter((call) => call.args.channel === channel)
    .map((call) => String(call.args.text));

async function say(user: string, text: string, channel = 'C0OPS'): Promise<string> {
  const { id } = await t.slack.command(user, text, { channel });
  const [answer] = await t.api.answers(id);
  return textOf(answer?.body ?? {});
}

const idIn = (text: string): string => /`(alr_[0-9a-f]{10})`/.exec(text)?.[1] ?? '';

describe('balance alerts', () => {
  let eurId = '';

  it('are added with /bank alert by an operator, in this channel or the one linked', async () => {
    const added = await say(USERS.operator, 'alert balance eur below 100,000', TREASURY);
    expect(added).toContain(`EUR below 100,000.00 EUR → <#${TREASURY}>`);
    expect(added).toContain('checked every 5 min');
    eurId = idIn(added);
    expect(eurId).toMatch(/^alr_/);
    // Two more: another EUR one elsewhere, and a USD one.
    expect(await say(USERS.operator, `alert balance EUR below 50000 <#${FX}|fx>`)).toContain(`<#${FX}>`);
    expect(await say(USERS.operator, `alert balance USD below 1000.50 <#${FX}|fx>`)).toContain(
      'USD below 1,000.50 USD',
    );
    const rows = await t.runtime.storage.read((s) => s.alerts.list());
    expect(rows.map((a) => [a.currency, a.thresholdMinor, a.channel]).sort()).toEqual([
      ['EUR', 10_000_000, TREASURY],
      ['EUR', 5_000_000, FX],
      ['USD', 100_050, FX],
    ]);
  });

  it('refuses a viewer, a currency the company does not hold, and too many decimals, each audited', async () => {
    const refused = await say(USERS.viewer, 'alert balance EUR below 10');
    expect(refused).toMatch(/Not allowed: create_balance_alert/);
    // The person refused is named as Slack names them, not by bankops's id for them.
    expect(refused).toContain(`<@${USERS.viewer}> has viewer`);
    expect(refused).not.toContain('slack:');
    expect(await say(USERS.operator, 'alert balance CHF below 10')).toContain(
      'the account has no CHF balance; it holds',
    );
    expect(await say(USERS.operator, 'alert balance JPY below 10.5')).toContain(
      'must be a whole number for JPY',
    );
    expect(await say(USERS.operator, 'alert balance EUR below -5')).toContain('alert balance reads');
    expect(await say(USERS.operator, 'alert balance EUR below 10 #nope')).toContain(
      'is not a channel Slack linked',
    );
    // Each on record as the executor records any call: refused before it ran (the policy, the
    // input), or run and failed on what the service answered (no CHF balance).
    const refusals = (await t.runtime.audit.tail(10)).filter(
      (e) => e.tool === 'create_balance_alert' && e.outcome === 'failed',
    );
    expect(refusals.map((e) => [e.decision, e.event])).toEqual([
      ['deny', 'requested'],
      ['allow', 'failed'],
      ['invalid', 'requested'],
    ]);
    expect(refusals[1]?.error).toContain('the account has no CHF balance');
    expect(await t.runtime.storage.read((s) => s.alerts.list())).toHaveLength(3);
  });

  it('post once on the way down and once on the way up, with one read of the service per check', async () => {
    await nextCheck(); // the first check: every balance above its threshold, nothing said
    expect(postedTo(TREASURY)).toEqual([]);
    expect(await balanceOf('EUR')).toBe(120_000);

    await convert(30_000, 'EUR', 'USD'); // EUR 90,000: under the 100,000 alert only
    const before = reads();
    await nextCheck();
    expect(reads() - before).toBe(1); // three alerts, two currencies: one read
    expect(postedTo(TREASURY)).toEqual([
      `:warning: *The EUR balance is below 100,000.00 EUR*: 90,000.00 EUR available (alert \`${eurId}\`).`,
    ]);
    expect(postedTo(FX)).toEqual([]);

    // A replica on the same database runs the same job in the same slot: it reads nothing, posts nothing.
    const replica = new Scheduler({
      storage: t.runtime.storage,
      clock,
      owner: 'replica-host:2',
      log: t.runtime.log,
    });
    const outbox = t.serve.slack?.services.outbox;
    if (outbox === undefined) throw new Error('no Slack front end');
    await balanceAlertsJob(t.runtime.alerts, replica, outbox, t.runtime.log).run(clock.now());
    expect(reads() - before).toBe(1);

    // Still under at the next checks: nothing more.
    await nextCheck();
    await nextCheck();
    expect(postedTo(TREASURY)).toHaveLength(1);

    await convert(15_000, 'USD', 'EUR'); // back above 100,000 EUR (the rate gives more EUR than USD)
    await nextCheck();
    expect(postedTo(TREASURY)).toHaveLength(2);
    expect(postedTo(TREASURY)[1]).toMatch(
      new RegExp(
        `^:white_check_mark: \\*The EUR balance is back at or above 100,000.00 EUR\\*: 10\\d,\\d{3}\\.\\d{2} EUR available \\(alert \`${eurId}\`\\)\\.$`,
      ),
    );
    await nextCheck();
    expect(postedTo(TREASURY)).toHaveLength(2);
    expect(postedTo(FX)).toEqual([]);
  });

  it('post nothing after a restart for a crossing already posted', async () => {
    await convert(30_000, 'EUR', 'USD');
    await nextCheck();
    expect(postedTo(TREASURY)).toHaveLength(3);
    await t.restart();
    await nextCheck();
    await nextCheck();
    expect(postedTo(TREASURY)).toHaveLength(3);
    const alert = await t.runtime.storage.read((s) => s.alerts.get(eurId));
    expect(alert).toMatchObject({ level: 'below', posts: 3, readFailing: false });
  });

  it('say once that the balance cannot be read, post no alert meanwhile, and once when it can again', async () => {
    await injectFault(t.sandbox, {
      path: '/svc/banking/api/v1/accounts/balances',
      method: 'GET',
      status: 503,
    });
    await convert(40_000, 'USD', 'EUR'); // above again while the reads fail: not posted as recovered
    await nextCheck();
    await nextCheck();
    const unreadable = postedTo(TREASURY).slice(3);
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]).toMatch(/^:grey_question: The EUR balance cannot be read: .*this is said once/);
    expect(postedTo(FX)).toHaveLength(2); // each alert says it once in its own channel
    // Nor can an alert be added while the balances cannot be read: said, and on record.
    expect(await say(USERS.operator, 'alert balance GBP below 5')).toMatch(/^:x: The alert was not added: /);
    const notAdded = (await t.runtime.audit.tail(5)).filter((e) => e.tool === 'create_balance_alert');
    expect(notAdded.at(-1)).toMatchObject({ event: 'failed', outcome: 'failed' });
    const failed = (await t.runtime.audit.tail(20)).filter((e) => e.actor === 'system:alerts');
    expect(failed.at(-1)).toMatchObject({ tool: 'get_balances', frontEnd: 'system', outcome: 'failed' });

    await raw(t.sandbox, 'DELETE', '/_sandbox/faults');
    await nextCheck();
    const after = postedTo(TREASURY).slice(4);
    expect(after[0]).toMatch(
      /^:information_source: The EUR balance can be read again: 1\d\d,\d{3}\.\d{2} EUR/,
    );
    expect(after[1]).toMatch(/^:white_check_mark: \*The EUR balance is back at or above 100,000.00 EUR/);
    expect(after).toHaveLength(2);
  });

  it('are listed and removed with /bank alert, and a removed alert posts no more', async () => {
    const list = await say(USERS.viewer, 'alert list');
    expect(list).toContain('*Balance alerts* (checked every 5 min)');
    expect(list).toContain(`\`${eurId}\` EUR below 100,000.00 EUR → <#${TREASURY}>: at or above`);
    expect(list).toContain('USD below 1,000.50 USD');

    expect(await say(USERS.viewer, `alert remove ${eurId}`)).toContain('Not allowed');
    expect(await say(USERS.operator, `alert remove ${eurId}`)).toContain(`Alert \`${eurId}\` EUR below`);
    expect(await say(USERS.operator, `alert remove ${eurId}`)).toContain(
      `no alert ${eurId} in the SQLite file`,
    );
    expect(await say(USERS.operator, 'alert')).toContain('alert reads `/bank alert balance');
    const help = await say(USERS.operator, 'help');
    for (const form of ['alert balance <CUR> below <amount> [#channel]', 'alert list', 'alert remove <id>'])
      expect(help).toContain(form);

    const count = postedTo(TREASURY).length;
    await convert(30_000, 'EUR', 'USD');
    await nextCheck();
    expect(postedTo(TREASURY)).toHaveLength(count);
    // How each attempt ended (a write is on record before it runs too: requested, executing).
    const removed = (await t.runtime.audit.tail(20)).filter(
      (e) => e.tool === 'delete_balance_alert' && (e.outcome === 'ok' || e.outcome === 'failed'),
    );
    expect(removed.map((e) => [e.actor, e.decision, e.outcome])).toEqual([
      [`slack:${USERS.viewer}`, 'deny', 'failed'],
      [`slack:${USERS.operator}`, 'allow', 'ok'],
      [`slack:${USERS.operator}`, 'allow', 'failed'],
    ]);
    expect(removed[2]?.error).toContain(`no alert ${eurId}`);
  });
});
