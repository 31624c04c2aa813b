import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';
import { type SlackTest, USERS } from '../helpers/slack-app.js';
import { openPayoutForm } from '../helpers/slack-approvals.js';
import { type GatedSlack, startGatedSlack } from '../helpers/slack-gated.js';
import { buttonsOf, textOf } from '../helpers/slack-requests.js';
import type { TcpGate } from '../helpers/tcp-gate.js';

const available = await postgresAvailable();

/**
 * `bankops serve` with Slack on PostgreSQL, reached through a port the test shuts and opens again:
 * while the database cannot be reached, commands and buttons are answered so, ephemerally, and
 * everything works again once it is back.
 */
describe.skipIf(!available)('Slack while the database cannot be reached', () => {
  const database = useTestDatabase();
  let app: GatedSlack;
  let gate: TcpGate;
  let t: SlackTest;

  beforeAll(async () => {
    app = await startGatedSlack(database, { slack: { groups: { missRefreshMs: 0 } } });
    ({ gate, t } = app);
  });
  afterAll(() => app?.close());

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
    // Closed before anything reads the database; the person is told where the command was typed.
    expect(await submitted.text()).toBe('');
    const told = (await t.api.answers(command)).at(-1)?.body ?? {};
    expect(textOf(told)).toContain('bankops cannot reach its database');
    expect(told.response_type).toBe('ephemeral');
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
    const answer = textOf((await t.api.answers(command, 2)).at(-1)?.body ?? {});
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
      // A bound for a loaded machine, never a pause: the update comes within milliseconds here.
      const updated = await t.api.waitFor(
        () => t.api.callsOf('views.update').find((c) => c.args.view_id === 'V-BEN-DOWN'),
        20_000,
      );
      expect(textOf(updated.args.view)).toContain('bankops cannot reach its database');
    } finally {
      await gate.open();
    }
  });
});
