import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderText } from '../../src/cli/render/text.js';
import { mcpStdioActor } from '../../src/core/actors.js';
import type { ApprovalView } from '../../src/core/approvals/index.js';
import type { ExecuteResult } from '../../src/core/results.js';
import { toCallToolResult } from '../../src/mcp/results.js';
import { approvalOutcome } from '../../src/present/approval-outcome.js';
import { approvalSummary } from '../../src/present/approval-summary.js';
import { factLines, statusLine } from '../../src/present/approval-words.js';
import { FAILURE_WORDS } from '../../src/present/failure.js';
import { approvalDocument, resultDocument } from '../../src/present/output/index.js';
import { approvalMessage } from '../../src/slack/approvals/messages/approval.js';
import { outcomeLine } from '../../src/slack/approvals/messages/clicked.js';
import { requestedMessage } from '../../src/slack/approvals/messages/requested.js';
import type { SlackMessage } from '../../src/slack/render/message.js';
import { outcomeMessage } from '../../src/slack/render/outcome.js';
import { fault, PAYOUT, pending } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';

/**
 * Every message the CLI, Slack and MCP print for the kinds of failure a person meets — invalid,
 * refused, pending, not answering, unknown outcome, failed after approval — read as a new user
 * reads them: one line says the cause, no raw zod phrase, no actor id where a name is known, no
 * line wider than the terminal (80 and 120 columns), and the same words for the same state in all
 * three front ends. The results are real: the executor against the sandbox, faults injected there.
 */

let core: TestCore;
beforeAll(async () => {
  // Reads are retried as in production, so "not answering" is said after the retries.
  core = await createTestCore({ ttlSeconds: 3600, maxRetries: 2 });
});
afterEach(async () => {
  await fetch(`${core.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
});
afterAll(() => core.close());

/** The phrases zod writes that a person should never read. */
const ZOD = [
  /Invalid input:/,
  /Too (small|big):/,
  /expected (number|string|one of)/,
  /Invalid option/,
  /received /,
];
/** An actor id as the core writes it (`cli:alice`, `slack:U0…`, `mcp:stdio`). */
const ACTOR_ID = /\b(cli|slack|mcp|system):[A-Za-z0-9]/;

interface Said {
  cli: Record<80 | 120, string>;
  mcp: string;
  slack: string;
}

const slackText = (message: SlackMessage): string =>
  [message.text, ...JSON.stringify(message.blocks).match(/"text":"(?:[^"\\]|\\.)*"/g)!].join('\n');

/** A result as each front end says it. */
function said(result: ExecuteResult): Said {
  const tool = core.registry.get(result.tool);
  if (tool === undefined) throw new Error(`no tool ${result.tool}`);
  const cli = (width: 80 | 120) =>
    renderText(resultDocument(core.registry, result, { maxColumns: 8, fullResult: '--json shows them' }), {
      color: false,
      width,
    });
  const mcp = toCallToolResult(tool, result)
    .content.map((c) => (c.type === 'text' ? c.text : ''))
    .join('\n');
  const slack =
    result.status === 'ok'
      ? ''
      : result.status === 'pending_approval'
        ? slackText(requestedMessage(result.approval, 'C0ASKED', {}))
        : slackText(outcomeMessage(result, tool.hints.readOnly));
  return { cli: { 80: cli(80), 120: cli(120) }, mcp, slack };
}

/** What every message holds, whatever the kind. */
function readsWell(words: Said): void {
  for (const width of [80, 120] as const) {
    const text = words.cli[width];
    for (const line of text.split('\n')) expect(line.length, `${width}: ${line}`).toBeLessThanOrEqual(width);
    // One line for the cause: the title, then the rest.
    expect(text.split('\n')[0]?.trim().length).toBeGreaterThan(0);
  }
  for (const text of [words.cli[120], words.mcp, words.slack]) {
    for (const phrase of ZOD) expect(text).not.toMatch(phrase);
    expect(text).not.toMatch(ACTOR_ID);
  }
}

/** The same words in all three. */
function allSay(words: Said, phrase: string): void {
  const flat = (text: string) => text.replace(/\s+/g, ' ');
  expect(flat(words.cli[80])).toContain(phrase);
  expect(flat(words.mcp)).toContain(phrase);
  expect(flat(words.slack)).toContain(phrase);
}

describe('one voice for the failure kinds, CLI, MCP and Slack', () => {
  it('invalid: a field at a time, in our words, with the value meant', async () => {
    const result = await core.call('create_payout', {
      ...PAYOUT,
      amount: -5,
      side: 'source',
      purposeCode: 'GOODS',
      sourceAssetCode: 'XYZ',
    });
    expect(result.status).toBe('invalid');
    const words = said(result);
    readsWell(words);
    allSay(words, 'must be more than 0, got -5');
    allSay(words, "got 'source'; did you mean SOURCE?");
    allSay(words, 'did you mean GOODS_PURCHASED?');
    allSay(words, "is not an ISO 4217 currency code, got 'XYZ'");
  });

  it('invalid: the value meant by the words typed in another order, and the field meant by a word of it', async () => {
    const result = await core.call('create_payout', {
      ...PAYOUT,
      purposeCode: 'purchased goods',
      account: 'acc_usd_0001',
    });
    expect(result.status).toBe('invalid');
    const words = said(result);
    allSay(words, "got 'purchased goods'; did you mean GOODS_PURCHASED?");
    allSay(words, 'unknown field; did you mean sourceAccountId?');
  });

  it('refused by the policy: the reason, people by name', async () => {
    const denied = await core.executor.execute({
      tool: 'get_balances',
      input: {},
      actor: { id: 'slack:U0NEW', frontEnd: 'slack' },
    });
    expect(denied.status).toBe('denied');
    const words = said(denied);
    readsWell(words);
    const reason = denied.status === 'denied' ? denied.reason : '';
    expect(reason).toContain('slack:U0NEW');
    // The person as each front end names them: a mention in Slack, words elsewhere.
    expect(words.slack).toContain('<@U0NEW>');
    expect(words.cli[80]).toContain('Slack user U0NEW');
    expect(words.mcp).toContain('Slack user U0NEW');
  });

  it('pending: nothing has happened yet, in all three', async () => {
    const result = await core.call('create_payout', PAYOUT, mcpStdioActor());
    expect(result.status).toBe('pending_approval');
    const words = said(result);
    readsWell(words);
    for (const text of [words.cli[80], words.mcp, words.slack])
      expect(text).toMatch(/nothing has happened yet/i);
  });

  it('not answering: a read after three 503s says the service is not answering and how long it tried', async () => {
    await fetch(`${core.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/svc/banking/*', method: 'GET', status: 503, times: 3 }),
    });
    const result = await core.call('get_balances', {});
    expect(result.status).toBe('failed');
    const words = said(result);
    readsWell(words);
    allSay(words, 'get_balances: the service is not answering (HTTP 503, 3 attempts over');
    allSay(words, FAILURE_WORDS.not_answering.advice);
    expect(words.cli[80]).not.toContain('correct what its message names');
  });

  it('unknown outcome: a write without an answer may or may not have happened', async () => {
    await fetch(`${core.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/issuing/*', method: 'PATCH', status: 503, times: 1 }),
    });
    const result = await core.call('update_card_status_b', {
      cardholderId: 'chb_demo_alice',
      walletId: 'wal_demo_alice_usd',
      cardId: 'card_demo_alice_virtual',
      status: 'LOCKED',
    });
    expect(result.status).toBe('failed');
    const words = said(result);
    readsWell(words);
    allSay(words, 'update_card_status_b: no answer from the service (HTTP 503)');
    allSay(words, FAILURE_WORDS.unknown_outcome.advice);
  });

  it('the database cannot be reached: the same words in all three, the advice without the address', () => {
    const words = said({
      status: 'failed',
      tool: 'get_balances',
      error: {
        kind: 'unavailable',
        operation: 'database',
        message: 'bankops cannot reach its database at 127.0.0.1:5432/bankops (connection refused)',
      },
    });
    readsWell(words);
    allSay(words, 'bankops cannot reach its database');
    expect(words.slack).toContain('Try again once it is back');
    expect(words.slack).not.toContain('127.0.0.1');
  });

  it('failed after approval: the same status line in the CLI, the Slack message and MCP', async () => {
    const view = pending(await core.call('create_payout', { ...PAYOUT, amount: 120 }));
    await fault(core, '/svc/banking/api/v1/payouts', { status: 400 }, 1);
    const approved = await core.executor.approve(view.id, core.approver);
    expect(approved.status).toBe('ok');
    const after = (await core.executor.getApproval(view.id)) as ApprovalView;
    expect(after.state).toBe('failed');
    const status = statusLine(after);
    const cli = renderText(approvalDocument(after, { registry: core.registry }), { color: false, width: 80 });
    const slack = slackText(
      approvalMessage(after, { policy: core.policy.current(), registry: core.registry }),
    );
    const mcp = approvalSummary(after).next;
    const line = approvalOutcome('approve', approved);
    const clicked = slackText(
      outcomeLine(
        approvalOutcome('approve', approved, (id) => id),
        core.policy.current(),
      ),
    );
    for (const text of [cli, slack, mcp]) expect(text.replace(/\s+/g, ' ')).toContain(status);
    expect(clicked).toContain(line.line.slice(0, 40));
    for (const l of cli.split('\n')) expect(l.length).toBeLessThanOrEqual(80);
    for (const text of [cli, slack, mcp, line.line]) expect(text).not.toMatch(ACTOR_ID);
  });
});

describe('siblings: words that contradicted themselves', () => {
  it('a payee whose name has brackets of its own is not bracketed again', () => {
    const [line] = factLines({
      kind: 'payout',
      payee: {
        id: 'ben_1',
        known: true,
        name: 'Jane Doe (ACH)',
        country: 'US',
        currency: 'USD',
        rail: 'LOCAL/ACH',
      },
      sourceAccountId: 'acc_usd_0001',
      send: { amount: 100, currency: 'USD' },
      receive: { amount: 100, currency: 'USD' },
      fees: { amount: 1, currency: 'USD' },
      totalDebit: { amount: 101, currency: 'USD' },
      purpose: 'GOODS_PURCHASED',
    });
    expect(line).toBe('Pay 100.00 USD to Jane Doe (ACH), US, USD, LOCAL/ACH, ben_1');
  });

  it('a card waiting for a permanent block shows the card as it was, not a "quote"', async () => {
    const view = pending(
      await core.call('update_card_status_b', {
        cardholderId: 'chb_demo_alice',
        walletId: 'wal_demo_alice_usd',
        cardId: 'card_demo_alice_physical',
        status: 'LOST',
      }),
    );
    const text = renderText(approvalDocument(view, { registry: core.registry }), {
      color: false,
      width: 100,
    });
    expect(text).toContain('Card when asked');
    expect(text).not.toContain('Quote shown');
    // A decision on it once it is closed says what became of it, not its state's name.
    await core.executor.reject(view.id, core.approver, 'not lost after all');
    const late = approvalOutcome('approve', await core.executor.approve(view.id, core.approver2));
    expect(late.line).toBe(`Refused: approval ${view.id} was already rejected; it takes no more decisions.`);
  });
});
