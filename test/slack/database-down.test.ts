import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockKey } from '../../src/core/store/postgres/locks.js';
import { fault } from '../helpers/approvals.js';
import {
  postgresAvailable,
  TEST_SERVER_URL,
  useTestDatabase,
  writeFingerprintKey,
} from '../helpers/postgres.js';
import { type SlackTest, startSlackTest, USERS } from '../helpers/slack-app.js';
import { askApproval, clickButton, openPayoutForm, shown, whereIs } from '../helpers/slack-approvals.js';
import { buttonsOf, type Payload, textOf } from '../helpers/slack-requests.js';
import { TcpGate } from '../helpers/tcp-gate.js';

const available = await postgresAvailable();

/**
 * `bankops serve` with Slack on PostgreSQL, reached through a port the test shuts and opens again:
 * while the database cannot be reached, commands and buttons are answered so, ephemerally, and
 * everything works again once it is back.
 */
describe.skipIf(!available)('Slack while the database cannot be reached', () => {
  const database = useTestDatabase();
  let gate: TcpGate;
  let t: SlackTest;
  const keys = mkdtempSync(join(tmpdir(), 'bankops-keys-'));
  const fingerprintKeyFile = writeFingerprintKey(keys);

  beforeAll(async () => {
    const server = new URL(TEST_SERVER_URL);
    gate = await TcpGate.open({ host: server.hostname, port: Number(server.port || 5432) });
    const url = new URL(database.url());
    url.port = String(gate.port);
    t = await startSlackTest({
      database: { url: url.toString(), fingerprintKeyFile },
      slack: { groups: { missRefreshMs: 0 } },
      config: { approvalsChannel: 'C0APPROVALS' },
      // One send, no re-sends: a payout the service does not answer is unresolved at once.
      core: { resendDelaysMs: [], resendWindowMs: 0 },
    });
  });
  afterAll(async () => {
    await gate?.open().catch(() => undefined);
    await t?.close();
    await gate?.shut();
    rmSync(keys, { recursive: true, force: true });
  });

  async function ask(user: string, text: string) {
    const { id, response } = await t.slack.command(user, text);
    expect(response.status).toBe(200);
    const answers = await t.api.answers(id);
    const body = answers.at(-1)?.body ?? {};
    return { body, text: textOf(body) };
  }

  it('answers "bankops cannot reach its database" to a command and a button, then works again', async () => {
    const before = await ask(USERS.viewer, 'balances');
    expect(before.text).toContain('Balances');
    const share = buttonsOf(before.body).find((b) => b.action_id === 'bankops_share');
    expect(share).toBeDefined();
    if (share === undefined) return;

    await gate.shut();
    const down = await ask(USERS.viewer, 'balances');
    expect(down.text).toContain('bankops cannot reach its database');
    expect(down.body.response_type).toBe('ephemeral');
    // The pending approvals live in the database alone.
    expect((await ask(USERS.viewer, 'approvals')).text).toContain('bankops cannot reach its database');
    const click = await t.slack.click(USERS.viewer, share, { channel: 'C0OPS' });
    expect(click.response.status).toBe(200);
    const clicked = (await t.api.answers(click.id))[0]?.body ?? {};
    expect(textOf(clicked)).toContain('bankops cannot reach its database');
    expect(t.api.callsOf('chat.postMessage').filter((c) => c.args.channel === 'C0OPS')).toEqual([]);

    await gate.open();
    const after = await ask(USERS.viewer, 'balances');
    expect(after.text).toContain('Balances');
    expect((await ask(USERS.viewer, 'approvals')).text).not.toContain('cannot reach');
  });

  it('tells a person who submits a form or opens the App Home while it is away, then works again', async () => {
    const { command, view, values } = await openPayoutForm(t, USERS.operator);

    await gate.shut();
    const submitted = await t.slack.submit(USERS.operator, view, values);
    expect(submitted.status).toBe(200);
    const ack = (await submitted.json()) as { response_action?: string; errors?: Record<string, string> };
    expect(ack.response_action).toBe('errors');
    expect(Object.values(ack.errors ?? {}).join(' ')).toContain('bankops cannot reach its database');
    const homes = t.api.callsOf('views.publish').length;
    await t.slack.event(
      { type: 'app_home_opened', user: USERS.viewer, channel: `D${USERS.viewer}`, tab: 'home' },
      { eventId: t.slack.nextId('Ev') },
    );
    const home = await t.api.waitFor(() => t.api.callsOf('views.publish')[homes]);
    expect(home.args.user_id).toBe(USERS.viewer);
    expect(textOf(home.args.view)).toContain('bankops cannot reach its database');

    await gate.open();
    const again = await t.slack.submit(USERS.operator, view, values);
    expect(again.status).toBe(200);
    const answer = textOf((await t.api.answers(command)).at(-1)?.body ?? {});
    expect(answer).toMatch(/apr_\w+/);
  });

  // The corridor step acknowledges with a "loading" view first; the refusal of a corridor the service
  // does not know waits for its audit entry, which cannot be written: the form must say so.
  it('tells a person whose form already shows "loading" (the beneficiary corridor) that it is away', async () => {
    const { triggerId } = await t.slack.command(USERS.operator, 'create_beneficiary');
    const corridor = await t.api.waitFor(() =>
      t.api.callsOf('views.open').find((c) => c.args.trigger_id === triggerId),
    );
    await gate.shut();
    try {
      const step = await t.slack.submit(
        USERS.operator,
        corridor.args.view,
        {
          currency: 'not a currency',
          entityType: { option: 'INDIVIDUAL' },
          paymentMethod: { option: 'LOCAL' },
          country: 'US',
        },
        'V-BEN-DOWN',
      );
      expect(((await step.json()) as { response_action?: string }).response_action).toBe('update');
      const updated = await t.api.waitFor(() =>
        t.api.callsOf('views.update').find((c) => c.args.view_id === 'V-BEN-DOWN'),
      );
      expect(textOf(updated.args.view)).toContain('bankops cannot reach its database');
    } finally {
      await gate.open();
    }
  });

  // The form is acknowledged (closed) before the approval is settled: the database going away in
  // between can no longer be answered on the form. bankops's write transactions take one advisory
  // lock first; the test holds it on its own connection (not through the gate), so the settlement
  // cannot get past it before the gate shuts, whenever it starts.
  it('tells a person whose Send again form meets the database away, before or after it closed, and settles nothing', async () => {
    const id = await askApproval(
      t,
      USERS.operator,
      'payout 301 USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED',
    );
    await fault(t, '/svc/banking/api/v1/payouts', { status: 503 });
    expect(await clickButton(t, USERS.treasurer, id, 'Approve')).toContain('Outcome unknown');
    expect((await t.runtime.executor.getApproval(id))?.state).toBe('unresolved');
    const again = await t.api.waitFor(() =>
      buttonsOf(shown(t.api, id) ?? {}).find((b) => b.text === 'Send again'),
    );
    const opened = t.api.callsOf('views.open').length;
    const click = await t.slack.click(USERS.dana, again, { channel: whereIs(t.api, id)?.channel ?? '' });
    const modal = (await t.api.waitFor(() => t.api.callsOf('views.open')[opened])).args.view as Payload;

    // Away before the form is acknowledged (its approval is read first): said on the form itself.
    await gate.shut();
    try {
      const early = await t.slack.submit(USERS.dana, modal, { reason: 'nothing under this request id' });
      const refused = (await early.json()) as { response_action?: string; errors?: Record<string, string> };
      expect(refused.response_action).toBe('errors');
      expect(Object.values(refused.errors ?? {}).join(' ')).toContain('bankops cannot reach its database');
    } finally {
      await gate.open();
    }

    const holder = await database.store().pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [LockKey.Storage]);
      const submitted = await t.slack.submit(USERS.dana, modal, { reason: 'nothing under this request id' });
      expect(submitted.status).toBe(200);
      expect(await submitted.text()).toBe('');
      await gate.shut();
      const [answer] = await t.api.answers(click.id);
      expect(textOf(answer?.body ?? {})).toContain('bankops cannot reach its database');
      expect(textOf(answer?.body ?? {})).toContain('Try again once it is back');
      expect(answer?.body.response_type).toBe('ephemeral');
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await gate.open();
    }
    expect((await t.runtime.executor.getApproval(id))?.state).toBe('unresolved');
    const entries = await t.runtime.audit.list({ approvalId: id, limit: 100 });
    expect(entries.filter((e) => e.decision === 'reconciled')).toEqual([]);
  });
});
