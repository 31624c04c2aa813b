import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolExample } from '../../src/present/examples.js';
import type { ApiCall } from '../helpers/slack-api.js';
import { type SlackTest, startSlackTest, USERS } from '../helpers/slack-app.js';
import { type Payload, textOf } from '../helpers/slack-requests.js';

let t: SlackTest;

beforeAll(async () => {
  t = await startSlackTest();
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
});

const leaf = (input: Record<string, unknown>, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], input);

/** Values for a form's inputs from a tool's example input, selects as options. */
function valuesFor(
  view: Payload,
  input: Record<string, unknown>,
): Record<string, string | { option: string }> {
  const values: Record<string, string | { option: string }> = {};
  for (const block of view.blocks as Payload[]) {
    if (block.type !== 'input') continue;
    const value = leaf(input, block.block_id);
    if (value === undefined) continue;
    values[block.block_id] =
      block.element.type === 'static_select' ? { option: String(value) } : String(value);
  }
  return values;
}

async function opened(triggerId: string): Promise<ApiCall> {
  return t.api.waitFor(() => t.api.callsOf('views.open').find((c) => c.args.trigger_id === triggerId));
}

describe('forms generated from a tool’s schema', () => {
  it('asks for every field of a create tool with many fields, within Slack’s 100 blocks', async () => {
    const { triggerId } = await t.slack.command(USERS.operator, 'create_cardholder_b');
    const view = (await opened(triggerId)).args.view;
    const inputs = (view.blocks as Payload[]).filter((b) => b.type === 'input');
    expect(inputs.length).toBeGreaterThanOrEqual(22);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(inputs.find((b) => b.block_id === 'firstName')?.optional).toBe(false);
    expect(inputs.find((b) => b.block_id === 'title')?.element.type).toBe('static_select');
  });

  it('returns invalid fields inline (response_action: errors) and runs nothing; valid ones run', async () => {
    const { id, triggerId } = await t.slack.command(USERS.operator, 'create_cardholder_a');
    const view = (await opened(triggerId)).args.view;
    const example = toolExample('create_cardholder_a')?.input ?? {};
    const before = (await t.runtime.audit.head()).seq;
    const bad = { ...valuesFor(view, example), date_of_birth: '17/05/1992', email: 'not-an-email' };
    const refused = await t.slack.submit(USERS.operator, view, bad);
    expect(refused.status).toBe(200);
    const errors = (await refused.json()) as Payload;
    expect(errors.response_action).toBe('errors');
    expect(Object.keys(errors.errors).sort()).toEqual(['date_of_birth', 'email']);
    expect(errors.errors.date_of_birth).toMatch(/YYYY-MM-DD/);
    expect(t.api.answersTo(id)).toEqual([]);
    // The refusal is audited as invalid input, once the form heard it; nothing reached the service.
    const audited = await t.api.waitFor(async () => {
      const entries = await t.runtime.audit.list({ afterSeq: before });
      return entries.length > 0 && entries;
    });
    expect(audited.map((e) => e.decision)).toEqual(['invalid']);

    const accepted = await t.slack.submit(USERS.operator, view, valuesFor(view, example));
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toBe('');
    const [answer] = await t.api.answers(id);
    expect(textOf(answer?.body ?? {})).toMatch(/cha_\w+/);
  });

  it('a short form missing what bankops cannot know opens a form pre-filled with what was typed', async () => {
    const { id, triggerId } = await t.slack.command(USERS.viewer, 'card card_demo_bruno_virtual');
    const view = (await opened(triggerId)).args.view;
    const card = (view.blocks as Payload[]).find((b) => b.block_id === 'cardId');
    expect(card?.element.initial_value).toBe('card_demo_bruno_virtual');
    const response = await t.slack.submit(USERS.viewer, view, {
      cardId: 'card_demo_bruno_virtual',
      cardholderId: 'chb_demo_bruno',
      walletId: 'wal_demo_bruno_usd',
    });
    expect(response.status).toBe(200);
    const [answer] = await t.api.answers(id);
    expect(textOf(answer?.body ?? {})).toMatch(/•••• \d{4}/);
    // Submitted as the viewer: the audit log says who.
    expect((await t.runtime.audit.tail(1))[0]).toMatchObject({
      actor: `slack:${USERS.viewer}`,
      tool: 'get_card_details_b',
    });
  });

  it('a new beneficiary: the corridor first, then the fields its JSON Schema demands', async () => {
    const { id, triggerId } = await t.slack.command(USERS.operator, 'create_beneficiary');
    const corridor = (await opened(triggerId)).args.view;
    expect((corridor.blocks as Payload[]).filter((b) => b.type === 'input').map((b) => b.block_id)).toEqual([
      'currency',
      'entityType',
      'paymentMethod',
      'country',
    ]);
    const step = await t.slack.submit(
      USERS.operator,
      corridor,
      {
        currency: 'USD',
        entityType: { option: 'INDIVIDUAL' },
        paymentMethod: { option: 'LOCAL' },
        country: 'US',
      },
      'V-BEN',
    );
    expect(((await step.json()) as Payload).response_action).toBe('update');
    const updated = await t.api.waitFor(() =>
      t.api.callsOf('views.update').find((c) => c.args.view_id === 'V-BEN'),
    );
    const fields = updated.args.view;
    const ids = (fields.blocks as Payload[]).filter((b) => b.type === 'input').map((b) => b.block_id);
    expect(ids).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'bank.accountNumber', 'bank.extras.clearingSystem']),
    );
    expect(ids).not.toContain('currency');
    expect(ids).not.toContain('companyName');

    const example = toolExample('create_beneficiary')?.input ?? {};
    const values = valuesFor(fields, example);
    const refused = await t.slack.submit(
      USERS.operator,
      fields,
      { ...values, 'bank.accountNumber': '', 'bank.iban': '' },
      'V-BEN',
    );
    // The corridor's schema is the service's: judged after the form closed (the executor reads the
    // database first), so the fields it refuses are named in the answer where the command was typed.
    expect(await refused.text()).toBe('');
    const [refusal] = await t.api.answers(id);
    expect(textOf(refusal?.body ?? {})).toMatch(/accountNumber|iban/);

    const accepted = await t.slack.submit(USERS.operator, fields, values, 'V-BEN');
    expect(accepted.status).toBe(200);
    // A new payee is a change of the payee directory: the shipped policy asks one approver.
    const answer = (await t.api.answers(id, 2)).at(-1);
    expect(textOf(answer?.body ?? {})).toMatch(/Waiting for approval: Register the payee .+ \(US, USD/);
  });

  it('a complete request that waits for approval opens no form; with no approvals channel, approvers use the CLI', async () => {
    const { id, triggerId } = await t.slack.command(USERS.operator, 'convert 100 USD to EUR side=TARGET', {
      channel: 'C0TREASURY',
    });
    const [answer] = await t.api.answers(id);
    const approvalId = /apr_\w+/.exec(textOf(answer?.body ?? {}))?.[0];
    expect(approvalId).toBeDefined();
    expect(textOf(answer?.body ?? {})).toContain(`bankops approvals approve ${approvalId}`);
    expect(t.api.callsOf('views.open').some((c) => c.args.trigger_id === triggerId)).toBe(false);
  });

  it('does not open a form for a tool the person may not call at all', async () => {
    const { id } = await t.slack.command(USERS.viewer, 'create_cardholder_b');
    const [answer] = await t.api.answers(id);
    expect(textOf(answer?.body ?? {})).toMatch(/create_cardholder_b needs role operator/);
    // Nor for one whose rules depend on the input but refuse this person whatever it is.
    const payout = await t.slack.command(USERS.viewer, 'create_payout amount=1');
    const [refused] = await t.api.answers(payout.id);
    expect(textOf(refused?.body ?? {})).toMatch(/create_payout needs role operator \(rule 'payouts'\)/);
    expect(t.api.callsOf('views.open').some((c) => c.args.trigger_id === payout.triggerId)).toBe(false);
  });
});
