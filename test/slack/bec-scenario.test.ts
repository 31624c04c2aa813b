import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { slackActor } from '../../src/core/actors.js';
import { achBeneficiary } from '../helpers/banking.js';
import { manualClock } from '../helpers/clock.js';
import {
  type SlackTest,
  slackPolicyYaml,
  startSlackTest,
  TREASURY_GROUP,
  USERS,
} from '../helpers/slack-app.js';
import { APPROVALS_CHANNEL, waitShown } from '../helpers/slack-approvals.js';
import { textOf } from '../helpers/slack-requests.js';
import { enrolSoftPasskey } from '../helpers/soft-passkey.js';

// Business e-mail compromise, through the real front ends: an assistant over MCP (HTTP, its own
// key) registers new bank details and asks for a payout to them minutes later. The approvers see
// in Slack that it is a first payment, to a payee that key created minutes ago, not verified; with
// `coolingOff: refuse` the payout is refused with a reason naming the period.

const VERIFIER = 'U0VERIFIER';
const PAGE_ORIGIN = 'http://localhost:4480';
const KEY = `bk_${randomBytes(24).toString('hex')}`;

type Action = 'extraApprover' | 'refuse' | 'stepUp';

function policyWith(action: Action): string {
  const policy = parse(slackPolicyYaml()) as Record<string, unknown> & { actors: unknown[] };
  policy.actors.push(
    { match: { mcpKey: 'ci-agent' }, roles: ['viewer', 'operator'] },
    { match: { slackUser: VERIFIER }, roles: ['viewer', 'verifier'] },
  );
  policy.mcpKeys = [{ name: 'ci-agent', sha256: createHash('sha256').update(KEY).digest('hex') }];
  policy.payees = { coolingOff: { period: '24h', action } };
  return stringify(policy);
}

const tests: SlackTest[] = [];
afterAll(async () => {
  for (const t of tests) {
    expect(t.api.problems).toEqual([]);
    await t.close();
  }
});

async function start(action: Action) {
  const clock = manualClock('2026-11-20T09:00:00.000Z');
  const t = await startSlackTest({
    policyYaml: policyWith(action),
    config: { approvalsChannel: APPROVALS_CHANNEL },
    // The approval page's passkeys are for this origin (the page itself is fetched from the listener).
    core: { clock, publicUrl: PAGE_ORIGIN },
  });
  tests.push(t);
  const client = new Client({ name: 'assistant', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.serve.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
    }),
  );
  return { t, clock, client };
}

/** The approval an MCP answer is waiting for (`status: pending_approval`, its `approvalId`). */
function approvalIdOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.structuredContent as { status?: string; approvalId?: string } | undefined;
  expect(content?.status, JSON.stringify(result)).toBe('pending_approval');
  return content?.approvalId ?? '';
}

/** The assistant registers the new bank details; a treasurer approves them (rule payee-directory). */
async function registered(t: SlackTest, client: Client): Promise<string> {
  const { companyCode: _configured, ...payee } = achBeneficiary();
  const asked = await client.callTool({ name: 'create_beneficiary', arguments: payee });
  const vote = await t.runtime.executor.approve(
    approvalIdOf(asked),
    slackActor(USERS.treasurer, [TREASURY_GROUP]),
  );
  expect(vote.status).toBe('ok');
  const created = (await t.runtime.payees.all()).find((p) => p.name === 'John Smith');
  expect(created).toBeDefined();
  return created?.id ?? '';
}

const payout = (beneficiaryId: string) => ({
  beneficiaryId,
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  destinationRail: 'ACH',
  amount: 1000,
  side: 'SOURCE',
  purposeCode: 'GOODS_PURCHASED',
});

describe('business e-mail compromise through MCP and Slack', () => {
  it('the approval message says first payment, created minutes ago by that key, not verified', async () => {
    const { t, clock, client } = await start('extraApprover');
    const id = await registered(t, client);
    clock.advance(8 * 60_000);
    const asked = await client.callTool({ name: 'create_payout', arguments: payout(id) });
    const approvalId = approvalIdOf(asked);
    const message = textOf(await waitShown(t.api, approvalId, 'First payment to this beneficiary'));
    expect(message).toContain('John Smith');
    expect(message).toMatch(/Created 8 minutes before this request by ci-agent/);
    expect(message).toContain('Not verified');
    // The rule line says why two approvers: the cooling-off, until when.
    expect(message).toContain(
      'John Smith is in the 24h cooling-off period after its bank details were set (2026-11-20T09:00:00.000Z), until 2026-11-21T09:00:00.000Z (policy payees.coolingOff)',
    );
    // The assistant following its request with get_approval reads the same words.
    const read = await client.callTool({ name: 'get_approval', arguments: { approvalId } });
    const lead = (read.content as { type: string; text: string }[])[0]?.text.split('\n{')[0] ?? '';
    expect(lead).toContain('• First payment to this beneficiary');
    expect(lead).toMatch(/• Created 8 minutes before this request by ci-agent/);
    expect(lead).toContain('• Not verified');
    await client.close();
  });

  it('the approval page an approver opens says the same: first payment, created minutes ago by that key, not verified', async () => {
    // With coolingOff: stepUp each vote is confirmed on the approval page, so the treasurer opens it.
    const { t, clock, client } = await start('stepUp');
    const treasurer = slackActor(USERS.treasurer, [TREASURY_GROUP]);
    await enrolSoftPasskey(t.runtime.passkeys, treasurer.id, treasurer, PAGE_ORIGIN);
    const id = await registered(t, client);
    clock.advance(8 * 60_000);
    const approvalId = approvalIdOf(await client.callTool({ name: 'create_payout', arguments: payout(id) }));
    const link = new URL((await t.runtime.passkeys.approvalLink(approvalId, treasurer)).url);
    const page = await fetch(`${t.serve.url}${link.pathname}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('First payment to this beneficiary');
    expect(html).toMatch(/Created 8 minutes before this request by ci-agent/);
    expect(html).toContain('Not verified');
    expect(html).toContain('John Smith');
    await client.close();
  });

  it('with coolingOff: refuse, refused naming the period; after a call-back and the period, paid', async () => {
    const { t, clock, client } = await start('refuse');
    const id = await registered(t, client);
    clock.advance(8 * 60_000);
    const refused = await client.callTool({ name: 'create_payout', arguments: payout(id) });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused)).toContain('24h cooling-off period');

    // A verifier calls the number on file back (`/bank payee verify`); once the period is over,
    // the payout goes to its approver like any other, and is paid.
    const { id: command } = await t.slack.command(
      VERIFIER,
      'payee verify John Smith contact="+1 555 0100 2233" note="John Smith confirmed the account ending 8835"',
    );
    expect(textOf((await t.api.answers(command)).at(-1)?.body ?? {})).toContain('2233');
    expect((await t.runtime.payees.get(id))?.verification?.method).toBe('callback');
    clock.advance(25 * 3_600_000);
    const asked = await client.callTool({ name: 'create_payout', arguments: payout(id) });
    const approvalId = approvalIdOf(asked);
    expect(textOf(await waitShown(t.api, approvalId, 'Verified by call-back'))).toContain('First payment');
    const paid = await t.runtime.executor.approve(approvalId, slackActor(USERS.treasurer, [TREASURY_GROUP]));
    expect(paid.status).toBe('ok');
    expect((await t.runtime.executor.getApproval(approvalId))?.state).toBe('succeeded');
    await client.close();
  });
});
