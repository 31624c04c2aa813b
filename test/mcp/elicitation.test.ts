import { readFileSync, writeFileSync } from 'node:fs';
import type { CallToolResult, Client, ElicitResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mcpStdioActor } from '../../src/core/actors.js';
import { defaultPolicyPath } from '../../src/core/policy/default-path.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { SEED } from '../helpers/issuing-b.js';
import { connectInMemory, ERAS, type Era, PAYOUT, rawModernCall, textOf } from './helpers.js';

/**
 * A client that can show a form is asked to confirm every write the policy allows outright; its
 * answer decides whether the write runs. Writes that wait for approval, and reads, ask nothing.
 * A 2026-07-28 client gets the question as an `input_required` result and calls again with the
 * answer; a 2025 one as `elicitation/create` during the call. Both answer through the client's
 * `elicitation/create` handler.
 */
let core: TestCore;
const clients = new Map<Era, Client>();
let client: Client;
const asked: string[] = [];
let answer: ElicitResult = { action: 'accept', content: { confirm: true } };
/** Runs while the question is open, before the answer goes back: a policy change, say. */
let meanwhile: () => void = () => {};
const SHIPPED = readFileSync(defaultPolicyPath(), 'utf8');

/** Puts the shipped policy in force, with `rule` first when given. */
function usePolicy(rule = ''): void {
  writeFileSync(core.policy.path, SHIPPED.replace('\nrules:\n', `\nrules:\n${rule}`));
  expect(core.policy.reload()).toEqual({ ok: true });
}

/** Writes of cardholders wait for one approver. */
const REVIEWED =
  '  - name: reviewed\n    tools: [update_cardholder_b]\n    allow: [operator]\n    approval: { approvers: 1, role: approver }\n';

beforeAll(async () => {
  core = await createTestCore({ policyYaml: SHIPPED });
  for (const era of ERAS) {
    const connected = await connectInMemory(
      { registry: core.registry, getExecutor: async () => core.executor, actor: mcpStdioActor() },
      { elicitation: {} },
      era,
    );
    connected.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      meanwhile();
      expect(request.params).toMatchObject({
        mode: 'form',
        requestedSchema: { properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      return answer;
    });
    clients.set(era, connected);
  }
});

beforeEach(async () => {
  asked.length = 0;
  answer = { action: 'accept', content: { confirm: true } };
  meanwhile = () => {};
  usePolicy();
});

afterAll(async () => {
  await Promise.allSettled([...clients.values()].map((c) => c.close()));
  await core?.close();
});

const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const mobileOfAlice = async (): Promise<unknown> =>
  ((await core.ok('get_cardholder_b', { cardholderId: SEED.alice.id })).cardholder as { mobile: unknown })
    .mobile;

const auditSince = (seq: number) => core.audit.list({ afterSeq: seq });

describe.each(ERAS)('MCP confirmation of writes the policy allows (%s client)', (era) => {
  beforeEach(async () => {
    client = clients.get(era)!;
  });

  it('asks, shows the tool and its input, and runs the write once the user says yes', async () => {
    const result = await call('update_cardholder_b', { cardholderId: SEED.alice.id, mobile: '91230001' });
    if (result.isError) throw new Error(textOf(result));
    expect(result.structuredContent).toMatchObject({ status: 'ok' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"Update cardholder (family B)" (update_cardholder_b)');
    expect(asked[0]).toContain(`- cardholderId: ${SEED.alice.id}`);
    expect(asked[0]).toContain('- mobile: 91230001');
    expect(await mobileOfAlice()).toBe('91230001');
  });

  it('runs nothing when the user declines, cancels, or accepts without saying yes, and audits it', async () => {
    const before = await mobileOfAlice();
    const answers: ElicitResult[] = [
      { action: 'decline' },
      { action: 'cancel' },
      { action: 'accept', content: { confirm: false } },
    ];
    for (const [index, given] of answers.entries()) {
      answer = given;
      const mark = (await core.audit.head()).seq;
      const result = await call('update_cardholder_b', {
        cardholderId: SEED.alice.id,
        mobile: `9123000${index + 2}`,
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'update_cardholder_b was not run: the user declined to confirm it. Nothing was changed. Do not call it again unless the user asks for it.',
      );
      const entries = await auditSince(mark);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actor: 'mcp:stdio',
        frontEnd: 'mcp',
        tool: 'update_cardholder_b',
        decision: 'declined',
        event: 'requested',
        outcome: 'failed',
        error: 'not run: the user declined to confirm it',
      });
    }
    expect(asked).toHaveLength(3);
    expect(await mobileOfAlice()).toBe(before);
    expect(await core.audit.verify()).toMatchObject({ ok: true });
  });

  it('takes an answer that does not fit the form as a no', async () => {
    const before = await mobileOfAlice();
    answer = { action: 'accept', content: { confirm: 'yes' } };
    const result = await call('update_cardholder_b', { cardholderId: SEED.alice.id, mobile: '91230009' });
    expect(textOf(result)).toMatch(/^update_cardholder_b was not run: the user declined to confirm it\./);
    expect(await mobileOfAlice()).toBe(before);
  });

  it('never shows a secret in the question', async () => {
    const key = 'whk_elicitation_secret_5e1f';
    const result = await call('create_subscription', {
      // One subscription per event: each era makes its own.
      event_name: era === 'modern' ? 'card_create' : 'card_activate',
      subscription_type: 'w',
      webhook_url: 'http://127.0.0.1:9/hook',
      x_api_key: key,
    });
    if (result.isError) throw new Error(textOf(result));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('- x_api_key: [REDACTED]');
    expect(asked[0]).not.toContain(key);
  });

  it('judges the call again after a yes: a policy changed while the user thought wins', async () => {
    const before = await mobileOfAlice();
    meanwhile = () => usePolicy('  - name: frozen\n    tools: [update_cardholder_b]\n    allow: [admin]\n');
    const denied = await call('update_cardholder_b', { cardholderId: SEED.alice.id, mobile: '91230101' });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/^Denied by the bankops policy/);
    expect(await mobileOfAlice()).toBe(before);

    usePolicy();
    meanwhile = () => usePolicy(REVIEWED);
    const waiting = await call('update_cardholder_b', { cardholderId: SEED.alice.id, mobile: '91230102' });
    if (waiting.isError) throw new Error(textOf(waiting));
    expect(waiting.structuredContent).toMatchObject({ status: 'pending_approval' });
    expect(await mobileOfAlice()).toBe(before);
    expect(asked).toHaveLength(2);
  });

  it('asks nothing for reads, nor for writes that wait for approvers', async () => {
    const read = await call('list_accounts');
    expect(read.isError).not.toBe(true);
    const payout = await call('create_payout', PAYOUT);
    if (payout.isError) throw new Error(textOf(payout));
    expect(payout.structuredContent).toMatchObject({ status: 'pending_approval' });
    expect(asked).toEqual([]);
  });

  it('does not ask when the server is told not to, nor a client that cannot show a form', async () => {
    const quiet = await connectInMemory(
      {
        registry: core.registry,
        getExecutor: async () => core.executor,
        actor: mcpStdioActor(),
        confirmWrites: false,
      },
      { elicitation: {} },
      era,
    );
    let quietAsked = 0;
    quiet.setRequestHandler('elicitation/create', async () => {
      quietAsked += 1;
      return { action: 'decline' };
    });
    const plain = await connectInMemory(
      { registry: core.registry, getExecutor: async () => core.executor, actor: mcpStdioActor() },
      {},
      era,
    );
    try {
      for (const [index, each] of [quiet, plain].entries()) {
        const result = (await each.callTool({
          name: 'update_cardholder_b',
          arguments: { cardholderId: SEED.alice.id, mobile: `9123001${index}` },
        })) as CallToolResult;
        if (result.isError) throw new Error(textOf(result));
        expect(await mobileOfAlice()).toBe(`9123001${index}`);
      }
      expect(quietAsked).toBe(0);
    } finally {
      await quiet.close();
      await plain.close();
    }
  });
});

describe('the executor while a person is asked', () => {
  it('keeps one idempotency key to one input while the user is asked', async () => {
    let release: (yes: boolean) => void = () => {};
    const gate = new Promise<boolean>((resolve) => {
      release = resolve;
    });
    const send = (mobile: string) =>
      core.executor.execute({
        tool: 'update_cardholder_b',
        input: { cardholderId: SEED.alice.id, mobile },
        actor: mcpStdioActor(),
        idempotencyKey: 'same-key',
        confirm: () => gate,
      });
    const first = send('91230201');
    const second = send('91230202');
    release(true);
    const results = await Promise.all([first, second]);
    expect(results.map((r) => r.status).sort()).toEqual(['invalid', 'ok']);
    const replay = await core.executor.execute({
      tool: 'update_cardholder_b',
      input: { cardholderId: SEED.alice.id, mobile: results[0]!.status === 'ok' ? '91230201' : '91230202' },
      actor: mcpStdioActor(),
      idempotencyKey: 'same-key',
      confirm: async () => {
        throw new Error('a replay must not ask');
      },
    });
    expect(replay.status).toBe('ok');
  });

  it('refuses a key already used for another input before asking anyone', async () => {
    const send = (mobile: string) =>
      core.executor.execute({
        tool: 'update_cardholder_b',
        input: { cardholderId: SEED.alice.id, mobile },
        actor: mcpStdioActor(),
        idempotencyKey: 'asked-once',
        confirm: async () => {
          asked.push(mobile);
          return true;
        },
      });
    expect((await send('91230301')).status).toBe('ok');
    const other = await send('91230302');
    expect(other).toMatchObject({ status: 'invalid' });
    expect(asked).toEqual(['91230301']);
  });

  it('answers a key that waits for approval with that approval, even once the policy would run it directly', async () => {
    const input = { cardholderId: SEED.alice.id, mobile: '91230401' };
    const send = () =>
      core.executor.execute({
        tool: 'update_cardholder_b',
        input,
        actor: mcpStdioActor(),
        idempotencyKey: 'waits',
      });
    usePolicy(REVIEWED);
    const opened = await send();
    expect(opened.status).toBe('pending_approval');
    usePolicy();
    const retried = await send();
    expect(retried).toMatchObject({
      status: 'pending_approval',
      approvalId: opened.status === 'pending_approval' ? opened.approvalId : '',
    });
    expect(await mobileOfAlice()).not.toBe('91230401');
  });
});

describe('MCP confirmation on the 2026-07-28 protocol, by hand', () => {
  const options = () => ({
    registry: core.registry,
    getExecutor: async () => core.executor,
    actor: mcpStdioActor(),
  });
  const UPDATE = {
    name: 'update_cardholder_b',
    arguments: { cardholderId: SEED.alice.id, mobile: '91230501' },
  };
  const YES = { confirm: { action: 'accept', content: { confirm: true } } };

  it('asks with input_required, a yes/no form and the digest of what it showed, running nothing', async () => {
    const before = await mobileOfAlice();
    const result = await rawModernCall(options(), UPDATE);
    expect(result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: { mode: 'form', requestedSchema: { required: ['confirm'] } },
        },
      },
      requestState: expect.stringMatching(/^confirm-v1\./),
    });
    expect(await mobileOfAlice()).toBe(before);

    const done = await rawModernCall(options(), {
      ...UPDATE,
      inputResponses: YES,
      requestState: result.requestState,
    });
    expect(done).toMatchObject({ structuredContent: { status: 'ok' } });
    expect(await mobileOfAlice()).toBe('91230501');
  });

  it('counts a yes only for the input the user was shown', async () => {
    const shown = await rawModernCall(options(), UPDATE);
    const before = await mobileOfAlice();
    for (const requestState of [undefined, 'confirm-v1.made-up', shown.requestState]) {
      const other = { ...UPDATE, arguments: { ...UPDATE.arguments, mobile: '91230599' } };
      const result = await rawModernCall(options(), {
        ...other,
        inputResponses: YES,
        ...(requestState === undefined ? {} : { requestState }),
      });
      expect(result).toMatchObject({ resultType: 'input_required' });
      expect(await mobileOfAlice()).toBe(before);
    }
  });
});
