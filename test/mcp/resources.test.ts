import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpStdioActor } from '../../src/core/actors.js';
import type { PolicyView } from '../../src/present/policy-view.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { connectInMemory, textOf } from './helpers.js';

let core: TestCore;
let client: Client;

beforeAll(async () => {
  core = await createTestCore();
  client = await connectInMemory({
    registry: core.registry,
    getExecutor: async () => core.executor,
    actor: mcpStdioActor(),
  });
});

afterAll(async () => {
  await client?.close();
  await core?.close();
});

async function readJson<T>(uri: string, from: Client = client): Promise<T> {
  const { contents } = await from.readResource({ uri });
  const [first] = contents;
  if (first === undefined || !('text' in first)) throw new Error(`${uri} has no text`);
  expect(first.mimeType).toBe('application/json');
  return JSON.parse(first.text) as T;
}

describe('MCP resources', () => {
  it('lists bankops://policy and bankops://events', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['bankops://events', 'bankops://policy']);
    for (const resource of resources) expect(resource.description).toMatch(/\S/);
  });

  it('bankops://events: the service’s event catalog with descriptions, read through the executor', async () => {
    const { events } = await readJson<{ events: { event_name: string; event_description: string }[] }>(
      'bankops://events',
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event_name: 'card_create', event_description: 'card creation' }),
    );
    expect(events.length).toBeGreaterThanOrEqual(10);
    const [audited] = await core.audit.list({ tool: 'list_webhook_events', order: 'desc', limit: 1 });
    expect(audited).toMatchObject({ actor: 'mcp:stdio', frontEnd: 'mcp' });
  });

  it('bankops://policy: this actor’s roles and, per tool, whether it runs, waits for approvers or is refused', async () => {
    const view = await readJson<PolicyView>('bankops://policy');
    expect(view.actor).toBe('mcp:stdio');
    expect(view.roles.sort()).toEqual(['operator', 'viewer']);
    expect(view.tools.length).toBe(core.registry.size - 4);
    const of = (name: string) => view.tools.find((t) => t.tool === name);
    expect(of('list_accounts')).toEqual({ tool: 'list_accounts', access: 'allowed' });
    expect(of('get_approval')).toEqual({ tool: 'get_approval', access: 'allowed' });
    expect(of('create_beneficiary')).toEqual({
      tool: 'create_beneficiary',
      access: 'approval',
      approval: { approvers: 1, role: 'approver' },
    });
    expect(of('create_conversion')).toEqual({
      tool: 'create_conversion',
      access: 'approval',
      approval: { approvers: 1, role: 'approver' },
    });
    expect(of('create_payout')).toEqual({
      tool: 'create_payout',
      access: 'depends_on_input',
      cases: [
        {
          when: 'amount at least 50000 USD, 45000 EUR, 40000 GBP, 65000 SGD or 50000 in any other currency',
          access: 'approval',
          rule: "'large-payouts'",
          approval: { approvers: 2, role: 'approver' },
        },
        {
          when: 'otherwise',
          access: 'approval',
          rule: "'payouts'",
          approval: { approvers: 1, role: 'approver' },
        },
      ],
    });
    expect(of('update_card_status_b')).toMatchObject({
      access: 'depends_on_input',
      cases: [
        { when: 'status is LOST, STOLEN or BLOCKED', access: 'approval' },
        { when: 'otherwise', access: 'allowed', rule: "'writes'" },
      ],
    });
    // No other actor, no key material.
    const text = JSON.stringify(view);
    expect(text).not.toMatch(/cli:|slack:|sha256|mcpKey|match/i);
  });

  it('bankops://policy follows the server’s filters, and the events resource comes with its tool', async () => {
    const banking = await connectInMemory({
      registry: core.registry,
      getExecutor: async () => core.executor,
      actor: mcpStdioActor(),
      toolsets: ['banking'],
      readOnly: true,
    });
    try {
      const view = await readJson<PolicyView>('bankops://policy', banking);
      const offered = (await banking.listTools()).tools.map((t) => t.name).sort();
      expect(view.tools.map((t) => t.tool).sort()).toEqual(offered);
      const { resources } = await banking.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['bankops://policy']);
    } finally {
      await banking.close();
    }
  });
});

describe('MCP: a read a custom policy puts behind approval', () => {
  it('answers with isError naming the approval, since a read’s output schema has no room for it', async () => {
    const custom = await createTestCore({
      policyYaml: `actors:
  - match: { mcpStdio: true }
    roles: [viewer]
rules:
  - tools: [list_accounts]
    allow: [viewer]
    approval: { approvers: 1, role: approver }
  - readOnly: true
    allow: [viewer]
`,
    });
    const reader = await connectInMemory({
      registry: custom.registry,
      getExecutor: async () => custom.executor,
      actor: mcpStdioActor(),
    });
    try {
      const result = (await reader.callTool({ name: 'list_accounts', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^list_accounts is waiting for approval apr_\w+; nothing has happened yet\. .*get_approval \{"approvalId":"apr_/,
      );
      expect(await custom.executor.listApprovals({ state: 'pending' })).toHaveLength(1);
      const view = await readJson<PolicyView>('bankops://policy', reader);
      expect(view.tools.find((t) => t.tool === 'list_accounts')).toMatchObject({ access: 'approval' });
      expect(view.tools.find((t) => t.tool === 'create_payout')).toEqual({
        tool: 'create_payout',
        access: 'denied',
        reason: 'no rule covers it',
      });
    } finally {
      await reader.close();
      await custom.close();
    }
  });
});
