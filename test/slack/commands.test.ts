import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/core/actors.js';
import { toolExample } from '../../src/present/examples.js';
import { sqliteOf } from '../helpers/core.js';
import { type SlackTest, startSlackTest, TREASURY_GROUP, USERS } from '../helpers/slack-app.js';
import { buttonsOf, textOf } from '../helpers/slack-requests.js';

let t: SlackTest;

beforeAll(async () => {
  // A miss may refresh the user groups at once (10 s apart in production).
  t = await startSlackTest({ slack: { groups: { missRefreshMs: 0 } } });
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
});

/** Types `/bank <text>` and returns the final answer's body and visible text. */
async function ask(user: string, text: string) {
  const { id, response } = await t.slack.command(user, text);
  expect(response.status).toBe(200);
  const answers = await t.api.answers(id);
  const body = answers.at(-1)?.body ?? {};
  return { id, body, text: textOf(body) };
}

describe('/bank help', () => {
  it('lists only what this person may do in Slack, never a tool whose input is a secret', async () => {
    const viewer = await ask(USERS.viewer, 'help');
    expect(viewer.text).toContain('/bank balances');
    expect(viewer.text).not.toContain('/bank payout');
    // A short form is listed only to who may run its tool: a viewer lists alerts, never adds one.
    expect(viewer.text).toContain('/bank alert list');
    expect(viewer.text).not.toContain('/bank alert balance');
    expect(viewer.text).not.toContain('/bank alert remove');
    const viewerMoney = await ask(USERS.viewer, 'help money');
    expect(viewerMoney.text).toContain('`get_balances`');
    expect(viewerMoney.text).not.toContain('create_payout');
    expect((await ask(USERS.viewer, 'help cards')).text).not.toContain('update_card_status_b');
    const operator = await ask(USERS.operator, 'help');
    expect(operator.text).toContain('/bank payout <amount> <CUR> to <beneficiary> from <account>');
    // One screen: the short forms, then a line per group, not every tool.
    expect(operator.text).toContain('`/bank help cards`');
    expect(operator.text).not.toContain('`create_payout`');
    expect(operator.text.length).toBeLessThan(3000);
    // One wording for "waits for approvers", whether or not the input decides how many.
    const money = await ask(USERS.operator, 'help money');
    expect(money.text).toContain('`create_payout` Send a payout _(needs 1 or 2 approvers)_');
    expect(money.text).toContain('`create_conversion` Convert currency _(needs 1 approver)_');
    expect(money.text).not.toContain('needs approval');
    for (const group of ['', ' money', ' cards', ' cardholders', ' events', ' approvals']) {
      const said = await ask(USERS.operator, `help${group}`);
      for (const secret of ['reset_pin_a', 'activate_card_a', 'assign_card_a', 'assign_card_b']) {
        expect(said.text).not.toContain(secret);
      }
    }
  });

  it('shows a tool’s fields and an example that works on the sandbox', async () => {
    const { text } = await ask(USERS.operator, 'help create_payout');
    expect(text).toContain('`beneficiaryId` (string, *required*)');
    expect(text).toMatch(/`\/bank create_payout beneficiaryId=\S+ sourceAccountId=acc_usd_0001/);
    expect(text).toMatch(
      /When amount at least 50000 USD.* it waits for 2 approvers with role approver\. Otherwise it waits for 1 approver with role approver\./,
    );
  });

  it('says why a tool whose input is a secret is not offered, and where to go', async () => {
    const { text } = await ask(USERS.operator, 'help reset_pin_a');
    expect(text).toContain('not offered in Slack');
    expect(text).toContain('bankops call reset_pin_a');
  });
});

describe('who is who', () => {
  it('tells an unknown user they have no access yet, with their user id, and runs nothing', async () => {
    const before = (await t.runtime.audit.head()).seq;
    const { text } = await ask(USERS.stranger, 'balances');
    expect(text).toContain('no access to bankops yet');
    expect(text).toContain(USERS.stranger);
    expect((await t.runtime.audit.head()).seq).toBe(before);
  });

  it('acts as slack:<user id>, with the roles of the user groups it belongs to', async () => {
    const { text } = await ask(USERS.treasurer, 'balances');
    expect(text).toContain('Balances');
    expect(t.api.callsOf('usergroups.users.list').map((c) => c.args.usergroup)).toContain(TREASURY_GROUP);
    const entry = (await t.runtime.audit.tail(1))[0];
    expect(entry?.actor).toBe(`slack:${USERS.treasurer}`);
    expect(entry?.frontEnd).toBe('slack');
  });
});

describe('user groups', () => {
  it('caches members briefly, reads them again on a miss, and grants nothing while they cannot be read', async () => {
    const lookups = () => t.api.callsOf('usergroups.users.list', true).length;
    await ask(USERS.treasurer, 'balances');
    const cached = lookups();
    await ask(USERS.treasurer, 'balances');
    expect(lookups()).toBe(cached);

    const newcomer = 'U0NEWCOMER';
    expect((await ask(newcomer, 'balances')).text).toContain('no access to bankops yet');
    t.api.setGroups({ [TREASURY_GROUP]: [USERS.treasurer, newcomer] });
    expect((await ask(newcomer, 'balances')).text).toContain('Balances');

    // Slack cannot say who is in the group: its roles are not granted, not guessed from a stale list.
    t.api.failNext('usergroups.users.list', { error: 'ratelimited' });
    t.api.failNext('usergroups.users.list', { error: 'ratelimited' });
    await ask(USERS.stranger, 'balances');
    expect((await ask(newcomer, 'balances')).text).toContain('no access to bankops yet');
    expect((await ask(newcomer, 'balances')).text).toContain('Balances');
  });
});

describe('short forms', () => {
  it('balances: a table of amounts per currency, with a Share button that posts exactly that to the channel', async () => {
    const { body, text } = await ask(USERS.viewer, 'balances');
    const table = JSON.stringify(body.attachments);
    expect(table).toContain('"type":"table"');
    expect(text).toMatch(/\d{1,3}(,\d{3})*\.\d{2} USD/);
    expect(text).toMatch(/[\d,]+\.\d{2} EUR/);
    const share = buttonsOf(body).find((b) => b.action_id === 'bankops_share');
    expect(share).toBeDefined();
    if (share === undefined) return;
    const other = await t.slack.click(USERS.operator, share);
    expect(textOf((await t.api.answers(other.id))[0]?.body ?? {})).toContain('Only the person who asked');
    // Someone the policy does not know is stopped before any listener, on a button as on a command.
    const stranger = await t.slack.click(USERS.stranger, share);
    expect(textOf((await t.api.answers(stranger.id))[0]?.body ?? {})).toContain('no access to bankops yet');
    const before = t.api.callsOf('chat.postMessage').length;
    const mine = await t.slack.click(USERS.viewer, share, { channel: 'C0OPS' });
    expect(textOf((await t.api.answers(mine.id))[0]?.body ?? {})).toContain('Shared in <#C0OPS>');
    const posted = t.api.callsOf('chat.postMessage').slice(before);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.args.channel).toBe('C0OPS');
    expect(textOf(posted[0]?.args ?? {})).toContain(`Shared by <@${USERS.viewer}>`);
    expect(JSON.stringify(posted[0]?.args.attachments)).toBe(
      JSON.stringify(
        body.attachments.map((a: { blocks: { type: string }[] }) => ({
          blocks: a.blocks.filter((b) => b.type !== 'actions'),
        })),
      ),
    );
  });

  it('accounts CUR: only that currency', async () => {
    const { text } = await ask(USERS.viewer, 'accounts EUR');
    expect(text).toContain('acc_eur_0001');
    expect(text).not.toContain('acc_usd_0001');
  });

  it('card <id> not seen yet: a form asks for its cardholder and wallet; once listed, it is resolved', async () => {
    const first = await t.slack.command(USERS.operator, 'card card_demo_alice_virtual');
    const opened = await t.api.waitFor(() =>
      t.api.callsOf('views.open').find((c) => c.args.trigger_id === first.triggerId),
    );
    const view = opened.args.view;
    expect(view.blocks.map((b: { block_id?: string }) => b.block_id)).toEqual(
      expect.arrayContaining(['cardholderId', 'walletId', 'cardId']),
    );
    expect(textOf(view)).toContain('has not seen card card_demo_alice_virtual');

    const listed = await ask(
      USERS.operator,
      'list_cards_b cardholderId=chb_demo_alice walletId=wal_demo_alice_usd',
    );
    expect(listed.text).toContain('card_demo_alice_virtual');
    expect(listed.text).toMatch(/•••• \d{4}/);
    expect(listed.text).toContain('ACTIVE');

    const card = await ask(USERS.operator, 'card card_demo_alice_virtual');
    expect(card.text).toMatch(/•••• \d{4}/);
    expect(card.text).toContain('ACTIVE');
  });

  it('card lock|unlock: runs at once for an operator; a viewer is refused with the policy’s reason', async () => {
    const viewer = await ask(USERS.viewer, 'card lock card_demo_alice_virtual');
    expect(viewer.text).toMatch(/needs role operator/);
    const locked = await ask(USERS.operator, 'card lock card_demo_alice_virtual');
    expect(locked.text).toContain('LOCKED');
    const unlocked = await ask(USERS.operator, 'card unlock card_demo_alice_virtual');
    expect(unlocked.text).toContain('ACTIVE');
  });

  it('card lock: a card the CLI listed is known in Slack; the answer says which card; a form title is never cut', async () => {
    // Listed by another front end (the CLI's actor): any answer counts.
    const listed = await t.runtime.executor.execute({
      tool: 'list_cards_b',
      input: { cardholderId: 'chb_demo_bruno', walletId: 'wal_demo_bruno_usd' },
      actor: cliActor('operator'),
    });
    expect(listed.status).toBe('ok');
    const locked = await ask(USERS.operator, 'card lock card_demo_bruno_virtual');
    expect(locked.text).toContain('LOCKED');
    expect(locked.text).toMatch(/•••• \d{4}/);
    expect(locked.text).toMatch(/Bruno/);
    await ask(USERS.operator, 'card unlock card_demo_bruno_virtual');
    // A card nobody listed yet: the form asks for its cardholder and wallet, under a whole title.
    const unseen = await t.slack.command(USERS.operator, 'card lock card_never_listed');
    const opened = await t.api.waitFor(() =>
      t.api.callsOf('views.open').find((c) => c.args.trigger_id === unseen.triggerId),
    );
    expect(opened.args.view.title.text).toBe('Change card status');
  });

  it('card block <id> lost|stolen|blocked: permanent, so it waits for an approver', async () => {
    const { text } = await ask(USERS.operator, 'card block card_demo_alice_virtual stolen');
    expect(text).toContain('Waiting for approval');
    expect(text).toMatch(/apr_\w+/);
    const usage = await ask(USERS.operator, 'card block card_demo_alice_virtual');
    expect(usage.text).toContain('lost|stolen|blocked');
  });

  it('payout: asks for the rail and purpose in a form when nothing knows them, else waits for approval', async () => {
    const asked = await t.slack.command(
      USERS.operator,
      'payout 1,000 USD to ben_us_ach_0001 from acc_usd_0001',
    );
    const opened = await t.api.waitFor(() =>
      t.api.callsOf('views.open').find((c) => c.args.trigger_id === asked.triggerId),
    );
    const blocks = opened.args.view.blocks as {
      block_id?: string;
      optional?: boolean;
      element?: { initial_value?: string };
    }[];
    const byId = new Map(blocks.map((b) => [b.block_id, b]));
    expect(byId.get('destinationRail')?.optional).toBe(false);
    expect(byId.get('purposeCode')?.optional).toBe(false);
    expect(byId.get('amount')?.element?.initial_value).toBe('1000');

    const { text } = await ask(
      USERS.operator,
      'payout 1000 USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED',
    );
    expect(text).toContain('Waiting for approval');
    expect(text).toContain('1,000.00 USD');
    // A payee bankops registered is in its payee directory: the rail comes from its corridor.
    // The payee directory's rule: one approver besides the operator who registers it.
    const registered = await t.runtime.executor.execute({
      tool: 'create_beneficiary',
      input: toolExample('create_beneficiary')?.input ?? {},
      actor: cliActor('operator'),
    });
    expect(registered.status).toBe('pending_approval');
    const approvalId = registered.status === 'pending_approval' ? registered.approvalId : '';
    const created = await t.runtime.executor.approve(approvalId, cliActor('approver'));
    expect(created).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    const payee = created.status === 'ok' ? String(created.approval.result?.beneficiary_id) : '';
    const known = await t.slack.command(USERS.operator, `payout 250 USD to ${payee} from acc_usd_0001`);
    const form = await t.api.waitFor(() =>
      t.api.callsOf('views.open').find((c) => c.args.trigger_id === known.triggerId),
    );
    const fields = new Map(
      (
        form.args.view.blocks as {
          block_id?: string;
          element?: { initial_value?: string; initial_option?: { value: string } };
        }[]
      ).map((b) => [b.block_id, b]),
    );
    expect(fields.get('destinationRail')?.element?.initial_value).toBe('ACH');
    expect(fields.get('purposeCode')?.element?.initial_option).toBeUndefined();

    const usage = await ask(USERS.operator, 'payout 1000 USD ben_us_ach_0001');
    expect(usage.text).toContain('/bank payout <amount> <CUR> to <beneficiary> from <account>');
  });

  it('payout to a payee bankops does not know: said at once, with the one meant, before any form', async () => {
    await t.runtime.executor.execute({
      tool: 'create_beneficiary',
      input: toolExample('create_beneficiary')?.input ?? {},
      actor: cliActor('operator'),
    });
    const before = t.api.callsOf('views.open').length;
    const { text } = await ask(USERS.operator, 'payout 1000 USD to ben_nope from acc_usd_0001');
    expect(text).toContain('no beneficiary ben_nope that bankops knows; did you mean');
    expect(t.api.callsOf('views.open').length).toBe(before);
    const currency = await ask(USERS.operator, 'payout 1000 XYZ to ben_nope from acc_usd_0001');
    expect(currency.text).toContain("is not an ISO 4217 currency code, got 'XYZ'");
    expect(t.api.callsOf('views.open').length).toBe(before);
  });

  it('convert: waits for approval, with the quote in words', async () => {
    const { text } = await ask(USERS.operator, 'convert 500 USD to EUR');
    expect(text).toContain('Waiting for approval');
    expect(text).toMatch(/Sell 500\.00 USD, buy [\d,.]+ EUR at [\d.]+ EUR per USD/);
  });

  it('approvals: those waiting for me (approver role, not mine), and mine', async () => {
    const mine = await ask(USERS.operator, 'approvals');
    expect(mine.text).toMatch(/Yours, waiting for others\* \([1-9]/);
    expect(mine.text).toContain('Waiting for you* (0)');
    const treasurer = await ask(USERS.treasurer, 'approvals');
    expect(treasurer.text).toMatch(/Waiting for you\* \([1-9]/);
    // Who asked, as a mention; never the raw id.
    expect(treasurer.text).toContain(`asked by <@${USERS.operator}>`);
    expect(treasurer.text).not.toContain(`slack:${USERS.operator}`);
  });

  it('approvals: a person asking as their CLI identity finds it under theirs in Slack, as on the App Home', async () => {
    const asked = await t.runtime.executor.execute({
      tool: 'create_conversion',
      input: { amount: 75, sourceAssetCode: 'USD', targetAssetCode: 'EUR', side: 'SOURCE' },
      actor: cliActor('dana'),
    });
    if (asked.status !== 'pending_approval') throw new Error(`expected an approval, got ${asked.status}`);
    const id = asked.approval.id;
    const listed = await ask(USERS.dana, 'approvals');
    const [forMe, mine] = listed.text.split('Yours, waiting for others');
    expect(mine).toContain(id);
    expect(forMe).not.toContain(id);
    // The App Home, by the same rule: no Approve button for it, a Cancel.
    await t.slack.event(
      { type: 'app_home_opened', user: USERS.dana, channel: `D${USERS.dana}`, tab: 'home' },
      { eventId: t.slack.nextId('Ev') },
    );
    const home = await t.api.waitFor(() =>
      t.api.callsOf('views.publish').find((c) => c.args.user_id === USERS.dana),
    );
    const values = buttonsOf(home.args.view).map((b) => `${b.action_id} ${b.value}`);
    expect(values.some((v) => v.startsWith('bankops_approval_cancel') && v.includes(id))).toBe(true);
    expect(values.some((v) => v.startsWith('bankops_approval_approve') && v.includes(id))).toBe(false);
  });
});

describe('subscriptions', () => {
  it('says what is missing when there is no public URL to give the service', async () => {
    const { text } = await ask(USERS.operator, 'subscribe card_block');
    expect(text).toContain('BANKOPS_PUBLIC_URL is not set');
  });
});

describe('answers', () => {
  it('pages a list the service pages: "More from the service" shows the next page, run as whoever clicks', async () => {
    const first = await ask(
      USERS.viewer,
      'list_card_transactions_a cardId=card_demo_ava_virtual page_size=5',
    );
    const more = buttonsOf(first.body).find((b) => b.action_id === 'bankops_service_next');
    expect(more?.text).toBe('More from the service');
    if (more === undefined) return;
    expect(JSON.parse(more.value)).toEqual({
      t: 'list_card_transactions_a',
      i: { cardId: 'card_demo_ava_virtual', page_size: 5, page_num: 2 },
    });
    const click = await t.slack.click(USERS.viewer, more);
    const [next] = await t.api.answers(click.id);
    const rows = (body: Record<string, unknown>) =>
      JSON.stringify(body.attachments ?? body.blocks).match(/"text":"[^"]*"/g)?.length ?? 0;
    expect(rows(next?.body ?? {})).toBeGreaterThan(0);
    expect(textOf(next?.body ?? {})).not.toBe(first.text);
    const audited = (await t.runtime.audit.tail(1))[0];
    expect(audited).toMatchObject({ tool: 'list_card_transactions_a', actor: `slack:${USERS.viewer}` });
    expect(audited?.input).toMatchObject({ page_num: 2 });
  });

  it('shows a card-details link only to the person who asked: no Share, not kept, redacted in the audit log', async () => {
    const { body, text } = await ask(
      USERS.operator,
      'get_card_details_link_b cardholderId=chb_demo_alice walletId=wal_demo_alice_usd cardId=card_demo_alice_physical',
    );
    const url = /https?:\/\/\S+/.exec(text)?.[0];
    expect(url).toBeDefined();
    expect(buttonsOf(body)).toEqual([]);
    const stored = sqliteOf(t.runtime).prepare('SELECT pages_json FROM slack_pages').all() as {
      pages_json: string;
    }[];
    expect(stored.some((row) => url !== undefined && row.pages_json.includes(url))).toBe(false);
    const lines: string[] = [];
    await t.runtime.audit.exportJsonl((line) => lines.push(line));
    expect(lines.join('\n')).not.toContain(url);
  });
});

describe('the generic form', () => {
  it('runs any tool offered in Slack with key=value arguments', async () => {
    const { text } = await ask(USERS.viewer, 'get_account accountId=acc_usd_0001');
    expect(text).toContain('acc_usd_0001');
  });

  it('reads nested fields with dotted keys and quotes', async () => {
    const { text } = await ask(USERS.viewer, 'get_user email="treasury@demo.bankops.test"');
    expect(text).toContain('treasury@demo.bankops.test');
  });

  it('says what is wrong in one line: a misspelt tool or field, a token that is not key=value', async () => {
    expect((await ask(USERS.viewer, 'balnces')).text).toContain('did you mean balances?');
    // A value the grammar reads but the tool refuses: the tool's own words, as over MCP and the CLI.
    expect((await ask(USERS.operator, 'payout -5 USD to ben_de_swift_0001 from acc_usd_0001')).text).toMatch(
      /amount.* must be more than 0, got -5/,
    );
    expect((await ask(USERS.viewer, 'frobnicate 12')).text).toContain(
      '`frobnicate` is neither a tool nor a short form. `/bank help` lists what you can do.',
    );
    expect((await ask(USERS.viewer, 'get_acount accountId=acc_usd_0001')).text).toContain(
      'did you mean get_account?',
    );
    expect((await ask(USERS.viewer, 'get_account accountId')).text).toContain("'accountId' is not key=value");
    const field = await ask(USERS.viewer, 'get_account accountID=acc_usd_0001');
    expect(field.text).toContain('did you mean accountId?');
    expect(field.text).toContain('/bank help get_account');
  });

  it('refuses a tool whose input is a secret without reading it, and never repeats the secret', async () => {
    const before = (await t.runtime.audit.head()).seq;
    const { text } = await ask(USERS.operator, 'reset_pin_a cardId=card_1 pin=4321');
    expect(text).toContain('not offered in Slack');
    expect(text).not.toContain('4321');
    expect((await t.runtime.audit.head()).seq).toBe(before);
  });
});
