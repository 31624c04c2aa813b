import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpActor, mcpStdioActor } from '../../src/core/actors.js';
import type { Executor } from '../../src/core/executor.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { ajv, connectInMemory, PAYOUT, textOf } from './helpers.js';

let core: TestCore;
let client: Client;
const executorCalls: string[] = [];

beforeAll(async () => {
  core = await createTestCore();
  client = await connectInMemory({
    registry: core.registry,
    getExecutor: async () => {
      executorCalls.push('built');
      return core.executor;
    },
    actor: mcpStdioActor(),
  });
});

afterAll(async () => {
  await client?.close();
  await core?.close();
});

const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('MCP server over in-memory transports: tools/list', () => {
  it('lists every tool of the registry but those whose input is a secret, without building the executor', async () => {
    const { tools } = await client.listTools();
    expect(executorCalls).toEqual([]);
    const offered = core.registry.list({ noSecretInput: true });
    expect(offered.length).toBe(core.registry.size - 4);
    expect(tools.map((t) => t.name)).toEqual(offered.map((t) => t.name));
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_approval', 'list_approvals']));
  });

  it('gives every tool a title, a description, annotations from its hints, and schemas that compile', async () => {
    const { tools } = await client.listTools();
    for (const listed of tools) {
      const tool = core.registry.get(listed.name)!;
      expect(listed.title, tool.name).toBe(tool.title);
      // The registry's description; an issuing tool's without its family sentence (size.test.ts).
      expect(listed.description, tool.name).toBe(
        tool.description.replace(/^Issuing family [AB] \([^)]*\)\. /, ''),
      );
      expect(listed.annotations, tool.name).toEqual({
        readOnlyHint: tool.hints.readOnly,
        destructiveHint: tool.hints.destructive,
        idempotentHint: tool.hints.idempotent,
        openWorldHint: tool.hints.openWorld,
      });
      for (const [kind, schema] of [
        ['input', listed.inputSchema],
        ['output', listed.outputSchema],
      ] as const) {
        expect(schema?.type, `${tool.name} ${kind}`).toBe('object');
        expect(() => ajv.compile((schema ?? {}) as object), `${tool.name} ${kind} schema`).not.toThrow();
      }
    }
  });

  it('advertises a write’s output as the envelope of its result or its approval; a read keeps its own', async () => {
    const { tools } = await client.listTools();
    const payout = tools.find((t) => t.name === 'create_payout')!;
    expect(Object.keys(payout.outputSchema?.properties ?? {}).sort()).toEqual([
      'approval',
      'approvalId',
      'result',
      'status',
    ]);
    expect(payout.outputSchema?.required).toEqual(['status']);
    const balances = tools.find((t) => t.name === 'get_balances')!;
    expect(Object.keys(balances.outputSchema?.properties ?? {})).toContain('balances');
  });

  it('offers no tool that approves, rejects or cancels', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.name).not.toMatch(/approve|reject|cancel|vote|decide/);
  });
});

describe('MCP server over in-memory transports: tools/call', () => {
  it('runs reads through the executor and returns structuredContent matching the output schema', async () => {
    const { tools } = await client.listTools();
    for (const name of ['get_balances', 'list_accounts']) {
      const result = await call(name);
      expect(result.isError, textOf(result)).not.toBe(true);
      const schema = tools.find((t) => t.name === name)!.outputSchema!;
      const validate = ajv.compile(schema as object);
      expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
      // The same JSON as text, for clients that read only text.
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    }
    const accounts = (await call('list_accounts')).structuredContent as { accounts: { accountId: string }[] };
    expect(accounts.accounts.map((a) => a.accountId)).toContain('acc_usd_0001');
    const balances = (await call('get_balances')).structuredContent as { balances: { currency: string }[] };
    expect(balances.balances.map((b) => b.currency)).toContain('USD');
    expect(executorCalls.length).toBeGreaterThan(0);
  });

  it('audits calls as the stdio assistant, over the MCP front end', async () => {
    await call('get_balances');
    const [latest] = await core.audit.list({ tool: 'get_balances', order: 'desc', limit: 1 });
    expect(latest).toMatchObject({ actor: 'mcp:stdio', frontEnd: 'mcp', outcome: 'ok' });
  });

  it('answers invalid input with isError naming the field, and audits it', async () => {
    const mark = (await core.audit.head()).seq;
    const result = await call('get_account', { accountId: 5 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invalid input for get_account:\n- accountId: must be text, got 5\nCorrect these fields and call get_account again.',
    );
    const missing = await call('create_payout', { ...PAYOUT, purposeCode: undefined });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('- purposeCode: required');
    const absent = await call('get_account', {});
    expect(textOf(absent)).toContain('- accountId: required');
    expect((await core.audit.list({ afterSeq: mark })).map((e) => [e.tool, e.decision])).toEqual([
      ['get_account', 'invalid'],
      ['create_payout', 'invalid'],
      ['get_account', 'invalid'],
    ]);
  });

  it('answers a refusal of the service with its message and request id, and what to do', async () => {
    const result = await call('get_account', { accountId: 'acc_nope' });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('acc_nope');
    expect(text).toMatch(/HTTP 400/);
    expect(text).toMatch(/request id \S+/);
    expect(text).toContain('correct what its message names');
  });

  it('opens an approval for a payout; a person approves; get_approval shows it succeeded with the payoutId', async () => {
    const progress: string[] = [];
    const requested = (await client.callTool(
      { name: 'create_payout', arguments: PAYOUT },
      {
        onprogress: (p) => progress.push(p.message ?? ''),
      },
    )) as CallToolResult;
    expect(requested.isError, textOf(requested)).not.toBe(true);
    const pending = requested.structuredContent as {
      status: string;
      approvalId: string;
      approval: Record<string, unknown>;
    };
    expect(pending).toMatchObject({
      status: 'pending_approval',
      approvalId: expect.stringMatching(/^apr_/),
      approval: {
        state: 'pending',
        requiredApprovers: 1,
        approverRole: 'approver',
        summary: expect.stringContaining('1,000.00 USD'),
        next: expect.stringContaining('get_approval'),
        expiresAt: expect.any(String),
      },
    });
    expect(textOf(requested)).toMatch(
      new RegExp(
        `^create_payout is waiting for approval ${pending.approvalId}; nothing has happened yet\\.\n\\{`,
      ),
    );
    // Progress: the start, then the end of a call that quotes and stores an approval.
    expect(progress[0]).toBe('create_payout: checking the policy');
    expect(progress.at(-1)).toBe(`create_payout: waiting for approval ${pending.approvalId}`);

    const before = await call('get_approval', { approvalId: pending.approvalId });
    expect(before.structuredContent).toMatchObject({
      state: 'pending',
      requester: 'mcp:stdio',
      approvals: [],
    });

    // Not its own request, whatever path it took to the executor.
    const own = await core.executor.approve(pending.approvalId, mcpStdioActor());
    expect(own).toMatchObject({
      status: 'refused',
      reason: 'mcp:stdio requested this call and cannot approve it',
    });

    const approved = await core.executor.approve(pending.approvalId, core.approver);
    expect(approved.status).toBe('ok');

    const after = await call('get_approval', { approvalId: pending.approvalId });
    expect(after.isError, textOf(after)).not.toBe(true);
    const view = after.structuredContent as {
      state: string;
      result: { payoutId: string };
      approvals: unknown[];
    };
    expect(view.state).toBe('succeeded');
    expect(view.result.payoutId).toMatch(/\S/);
    expect(view.approvals).toEqual([
      { approver: core.approver.id, person: core.approver.id, at: expect.any(String) },
    ]);

    const listed = await call('list_approvals', { state: 'succeeded' });
    const ids = (listed.structuredContent as { approvals: { id: string }[] }).approvals.map((a) => a.id);
    expect(ids).toContain(pending.approvalId);
    // The approval with its money facts matches the schemas that write the money shape once ($defs).
    const { tools } = await client.listTools();
    for (const [name, result] of [
      ['get_approval', after],
      ['list_approvals', listed],
    ] as const) {
      const validate = ajv.compile(tools.find((t) => t.name === name)?.outputSchema as object);
      expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    }
    expect(JSON.stringify(view)).toContain('"totalDebit":{"amount"');

    const payout = await call('get_payout', { payoutId: view.result.payoutId });
    expect(payout.structuredContent).toMatchObject({ payoutId: view.result.payoutId });
  });

  it("cannot approve anyone else's request either: the policy gives the stdio assistant no approver role", async () => {
    const opened = await core.call('create_payout', { ...PAYOUT, amount: 20 });
    if (opened.status !== 'pending_approval') throw new Error(JSON.stringify(opened));
    const refused = await core.executor.approve(opened.approvalId, mcpStdioActor());
    expect(refused).toMatchObject({ status: 'refused', reason: 'mcp:stdio does not hold the role approver' });
    expect((await core.executor.getApproval(opened.approvalId))?.state).toBe('pending');
  });

  it('returns a plain write that needs no approval as status ok with the result', async () => {
    const result = await call('create_subscription', { event_name: 'p2p_transfer', subscription_type: 'n' });
    if (result.isError) throw new Error(textOf(result));
    expect(result.structuredContent).toMatchObject({ status: 'ok', result: expect.any(Object) });
  });

  it('adds, lists and removes a balance alert, tools like the others (bankops serve checks them)', async () => {
    const added = await call('create_balance_alert', {
      currency: 'EUR',
      amount: 20_000.5,
      channel: 'C0TREASURY',
    });
    if (added.isError) throw new Error(textOf(added));
    const { result } = added.structuredContent as { result: { alert: { id: string } } };
    expect(result).toMatchObject({
      alert: {
        currency: 'EUR',
        below: 20_000.5,
        channel: 'C0TREASURY',
        level: 'unknown',
        createdBy: 'mcp:stdio',
      },
      checkEverySeconds: 300,
    });
    const listed = await call('list_balance_alerts');
    expect((listed.structuredContent as { alerts: { id: string }[] }).alerts.map((a) => a.id)).toContain(
      result.alert.id,
    );
    const held = await call('create_balance_alert', { currency: 'CHF', amount: 10, channel: 'C0TREASURY' });
    expect(held.isError).toBe(true);
    expect(textOf(held)).toContain('the account has no CHF balance');
    expect((await call('delete_balance_alert', { id: result.alert.id })).isError).toBeFalsy();
    const again = await call('delete_balance_alert', { id: result.alert.id });
    expect(textOf(again)).toContain(`no alert ${result.alert.id}`);
  });

  it('takes an idempotency key on every write: a retry returns the first result, another input is refused', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
      expect('idempotencyKey' in properties, tool.name).toBe(tool.annotations?.readOnlyHint !== true);
      expect(tool.inputSchema.required ?? [], tool.name).not.toContain('idempotencyKey');
    }
    const args = { event_name: 'card_enroll3DS', subscription_type: 'n', idempotencyKey: 'retry-7f3a' };
    const first = await call('create_subscription', args);
    if (first.isError) throw new Error(textOf(first));
    // Without the key the same subscription is refused by the service (one per event and scope).
    const again = await call('create_subscription', args);
    expect(again.isError, textOf(again)).not.toBe(true);
    expect(again.structuredContent).toEqual(first.structuredContent);
    const other = await call('create_subscription', { ...args, event_name: 'kyc_rfi_responded' });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain(
      "idempotency key 'retry-7f3a' was already used for a different create_subscription input",
    );
    const unkeyed = await call('create_subscription', {
      event_name: 'card_enroll3DS',
      subscription_type: 'n',
    });
    expect(unkeyed.isError).toBe(true);
    // A read takes no key: it would replay a stale answer.
    const read = await call('get_account', { accountId: 'acc_usd_0001', idempotencyKey: 'retry-7f3a' });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toContain('- idempotencyKey: unknown field');
  });

  it('takes a code the configuration fills, though tools/list leaves it out', async () => {
    const { tools } = await client.listTools();
    const balances = tools.find((t) => t.name === 'get_balances');
    expect(Object.keys(balances?.inputSchema.properties ?? {})).not.toContain('companyCode');
    const result = await call('get_balances', { companyCode: core.sandbox.credentials.companyId });
    expect(result.isError, textOf(result)).not.toBe(true);
    expect((result.structuredContent as { balances: unknown[] }).balances.length).toBeGreaterThan(0);
  });

  it('refuses an argument the tool does not have, naming the one meant, instead of dropping it', async () => {
    const result = await call('get_account', { accountId: 'acc_usd_0001', companycode: 'CMP-OTHER' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('- companycode: unknown field; did you mean companyCode?');
  });

  it('answers get_approval for an unknown id as invalid input on approvalId', async () => {
    const result = await call('get_approval', { approvalId: 'apr_000000000000000000000000' });
    expect(result.isError).toBe(true);
    // The answer names the store it looked in (a local file, or PostgreSQL's host and database).
    expect(textOf(result)).toMatch(
      /^Invalid input for get_approval:\n- approvalId: no approval apr_000000000000000000000000 in the SQLite file \S+bankops\.db; list_approvals shows the recent ones\nCorrect these fields and call get_approval again\.$/,
    );
    const direct = await core.call('get_approval', { approvalId: 'apr_000000000000000000000000' });
    expect(direct).toMatchObject({
      status: 'invalid',
      errors: [
        { path: 'approvalId', message: expect.stringMatching(/^no approval apr_0+ in the SQLite file \S+;/) },
      ],
    });
  });
});

describe('MCP server: policy refusals and lazy start-up failures', () => {
  it('answers a call the policy denies with isError carrying the policy’s reason', async () => {
    const stranger = await connectInMemory({
      registry: core.registry,
      getExecutor: async () => core.executor,
      actor: mcpActor('not-in-the-policy'),
    });
    try {
      const result = (await stranger.callTool({ name: 'list_accounts', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^Denied by the bankops policy: not-in-the-policy \(assistant over MCP\) is an unknown actor/,
      );
    } finally {
      await stranger.close();
    }
  });

  it('answers with isError when the executor cannot be built, and lists tools all the same', async () => {
    const broken = await connectInMemory({
      registry: core.registry,
      getExecutor: (): Promise<Executor> => Promise.reject(new Error('BANKOPS_DB: cannot open the database')),
      actor: mcpStdioActor(),
    });
    try {
      expect((await broken.listTools()).tools.length).toBe(core.registry.size - 4);
      const result = (await broken.callTool({ name: 'get_balances', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'bankops could not run get_balances: BANKOPS_DB: cannot open the database. Tell the bankops operators; the request id helps.',
      );
    } finally {
      await broken.close();
    }
  });
});

describe('MCP server: toolsets and read-only mode', () => {
  it('offers only reads in read-only mode', async () => {
    const readOnly = await connectInMemory({
      registry: core.registry,
      getExecutor: async () => core.executor,
      actor: mcpStdioActor(),
      readOnly: true,
    });
    try {
      const { tools } = await readOnly.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        core.registry
          .list({ readOnly: true, noSecretInput: true })
          .map((t) => t.name)
          .sort(),
      );
      for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      await expect(readOnly.callTool({ name: 'create_payout', arguments: PAYOUT })).rejects.toThrow(
        /create_payout not found/,
      );
    } finally {
      await readOnly.close();
    }
  });

  it('offers only the chosen toolsets, plus get_approval and list_approvals', async () => {
    const issuingB = await connectInMemory({
      registry: core.registry,
      getExecutor: async () => core.executor,
      actor: mcpStdioActor(),
      toolsets: ['issuing_b'],
    });
    try {
      const names = (await issuingB.listTools()).tools.map((t) => t.name).sort();
      const expected = core.registry
        .list({ toolsets: ['issuing_b'], noSecretInput: true })
        .map((t) => t.name);
      expect(names).toEqual([...expected, 'get_approval', 'list_approvals'].sort());
    } finally {
      await issuingB.close();
    }
  });
});
