import type { Client, Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpStdioActor } from '../../src/core/actors.js';
import { CONTEXT_BUDGET } from '../../src/mcp/listing.js';
import { createRegistry } from '../../src/tools/index.js';
import { ACTING_USER_FIELDS, CONFIGURED_FIELDS } from '../../src/tools/shared/configured.js';
import { connectInMemory, type Era } from './helpers.js';

// What tools/list costs an assistant's context, measured as sent (compact JSON; sizes are
// deterministic), against the budgets (CONTEXT_BUDGET, docs/mcp.md "Size"), not the sizes reached.

const registry = createRegistry();
const options = {
  registry,
  getExecutor: () => Promise.reject(new Error('tools/list must not need the executor')),
  actor: mcpStdioActor(),
};

let listed: Tool[] = [];
let instructions = '';

async function list(era: Era): Promise<{ tools: Tool[]; instructions: string }> {
  const client: Client = await connectInMemory(options, {}, era);
  try {
    return { tools: (await client.listTools()).tools, instructions: client.getInstructions() ?? '' };
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  ({ tools: listed, instructions } = await list('modern'));
});

afterAll(() => {
  listed = [];
});

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** Name + description + input schema of every tool: what a model reads to call them. */
const modelBytes = (tools: readonly Tool[]): number =>
  tools.reduce(
    (sum, tool) =>
      sum + bytes({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
    0,
  );

describe('the size of tools/list (the default server)', () => {
  it('stays within the budgets: 43,000 bytes for what the model reads, 114,500 for the whole list', () => {
    expect(CONTEXT_BUDGET).toEqual({ model: 43_000, whole: 114_500 });
    expect(listed.length).toBe(registry.list({ noSecretInput: true }).length);
    expect(modelBytes(listed)).toBeLessThanOrEqual(CONTEXT_BUDGET.model);
    expect(bytes({ tools: listed })).toBeLessThanOrEqual(CONTEXT_BUDGET.whole);
  });

  it('lists the tools in the registry’s order, the same for both protocol eras', async () => {
    const legacy = await list('legacy');
    expect(legacy.tools).toEqual(listed);
    expect(legacy.instructions).toBe(instructions);
    expect(listed.map((t) => t.name)).toEqual(registry.list({ noSecretInput: true }).map((t) => t.name));
  });
});

describe('what tools/list leaves to the instructions, said once', () => {
  it('says which programs each issuing family serves, and drops that sentence from each tool', () => {
    expect(instructions).toContain('_a tools serve programs of family A (on /svc/issuing/api/v1)');
    expect(instructions).toContain('_b tools programs of family B (on /issuing/api/v1)');
    for (const tool of listed.filter((t) => /_[ab]$/.test(t.name))) {
      expect(tool.description, tool.name).not.toMatch(/family [AB] \(programs/);
      expect(registry.get(tool.name)?.description.endsWith(tool.description ?? ''), tool.name).toBe(true);
      expect(tool.title, tool.name).toMatch(/\(family [AB]\)$/);
    }
  });

  it('says what the retry key of every write does; each write takes it, a plain string', () => {
    expect(instructions).toMatch(
      /optional idempotencyKey: calling again with the same key and input returns the first result/,
    );
    for (const tool of listed.filter((t) => t.annotations?.readOnlyHint === false))
      expect(tool.inputSchema.properties?.idempotencyKey, tool.name).toEqual({ type: 'string' });
  });

  it('leaves out the fields a tool fills itself (configured codes, the recorded creator or editor)', () => {
    expect(instructions).toContain('codes come from the configuration');
    const filled = [...CONFIGURED_FIELDS, ...ACTING_USER_FIELDS];
    const offering = listed.filter((t) =>
      Object.keys(t.inputSchema.properties ?? {}).some((f) => filled.includes(f)),
    );
    expect(offering.map((t) => t.name)).toEqual([]);
    // They are the tools' fields all the same (the executor takes them; see server.test.ts).
    expect(Object.keys(registry.get('create_subscription')?.input.shape ?? {})).toContain('program_code');
  });

  it('says where ids come from, and keeps no id pattern or description that only repeats a field’s name', () => {
    expect(instructions).toContain('family B cards from list_cards_b');
    const json = JSON.stringify(listed);
    expect(json).not.toContain('\\\\x21-\\\\x7e');
    const card = listed.find((t) => t.name === 'get_spend_limits_b');
    expect(card?.inputSchema.properties?.cardId).toEqual({ type: 'string' });
    const holder = listed.find((t) => t.name === 'create_cardholder_b')?.inputSchema.properties ?? {};
    expect(holder.deliveryCity).toEqual({ type: 'string' });
    expect(holder.firstName).toEqual({ type: 'string', description: 'First name, at most 14 characters.' });
  });

  it('writes the money shape of an approval once, under $defs', () => {
    for (const name of ['get_approval', 'list_approvals']) {
      const schema = listed.find((t) => t.name === name)?.outputSchema ?? {};
      const json = JSON.stringify(schema);
      expect(json, name).toContain('"$ref":"#/$defs/money"');
      expect((schema.$defs as Record<string, unknown>)?.money, name).toEqual({
        type: 'object',
        properties: { amount: { type: 'number' }, currency: { type: 'string' } },
        required: ['amount', 'currency'],
      });
      expect(json.match(/"amount":\{"type":"number"\}/g)?.length, name).toBe(1);
    }
  });
});
