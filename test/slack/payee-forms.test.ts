import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { slackActor } from '../../src/core/actors.js';
import {
  type SlackTest,
  slackPolicyYaml,
  startSlackTest,
  TREASURY_GROUP,
  USERS,
} from '../helpers/slack-app.js';
import { textOf } from '../helpers/slack-requests.js';

// `/bank payee name …` and `/bank payee verify …` through signed `/bank` requests to the real Bolt
// app: the short forms of name_payee and verify_payee, under the shipped policy's rules.

const VERIFIER = 'U0VERIFIER';
let t: SlackTest;

beforeAll(async () => {
  const policy = parse(slackPolicyYaml()) as { actors: unknown[] };
  policy.actors.push({ match: { slackUser: VERIFIER }, roles: ['viewer', 'verifier'] });
  t = await startSlackTest({ policyYaml: stringify(policy) });
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
});

/** Types `/bank <text>` and returns the final answer's visible text. */
async function ask(user: string, text: string): Promise<string> {
  const { id, response } = await t.slack.command(user, text);
  expect(response.status).toBe(200);
  const answers = await t.api.answers(id);
  return textOf(answers.at(-1)?.body ?? {});
}

describe('/bank payee', () => {
  it('payee name: the words after the id are the name; it waits for an approver, then names the payee', async () => {
    const asked = await ask(USERS.operator, 'payee name ben_us_ach_0001 Acme Corp');
    const approvalId = /apr_[0-9A-Za-z]+/.exec(asked)?.[0];
    expect(approvalId, asked).toBeDefined();
    const approval = await t.runtime.executor.getApproval(approvalId ?? '');
    expect(approval?.input).toEqual({ beneficiaryId: 'ben_us_ach_0001', name: 'Acme Corp' });
    const vote = await t.runtime.executor.approve(
      approvalId ?? '',
      slackActor(USERS.treasurer, [TREASURY_GROUP]),
    );
    expect(vote.status).toBe('ok');
    expect((await t.runtime.payees.get('ben_us_ach_0001'))?.name).toBe('Acme Corp');
  });

  it('payee verify: by a verifier, the payee by name, contact and note as key=value; the number kept masked', async () => {
    const said = await ask(
      VERIFIER,
      'payee verify Acme Corp contact="+1 555 0100 2233" note="Jane Doe in AP confirmed"',
    );
    expect(said).toContain('2233');
    expect(said).not.toContain('555 0100');
    const payee = await t.runtime.payees.get('ben_us_ach_0001');
    expect(payee?.verification).toMatchObject({
      method: 'callback',
      contactMasked: '••••2233',
      note: 'Jane Doe in AP confirmed',
      by: { person: `slack:${VERIFIER}` },
    });
  });

  it('refuses someone without the role verifier with the policy’s reason', async () => {
    const said = await ask(
      USERS.operator,
      'payee verify ben_us_ach_0001 contact="+1 555 0100 2233" note="ok"',
    );
    expect(said).toContain('verifier');
  });

  it('says the grammar of a form typed wrong, and help shows the forms to those who may use them', async () => {
    expect(await ask(USERS.operator, 'payee')).toContain('`/bank payee name <beneficiaryId> <name>`');
    expect(await ask(USERS.operator, 'payee name ben_us_ach_0001')).toContain('payee name reads');
    expect(await ask(VERIFIER, 'payee verify contact="+1 555 0100 2233"')).toContain('the payee first');
    expect(await ask(VERIFIER, 'help')).toContain('/bank payee verify <payee>');
    expect(await ask(USERS.viewer, 'help')).not.toContain('/bank payee');
  });
});
