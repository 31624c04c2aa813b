import type { Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpStdioActor } from '../../src/core/actors.js';
import { createRegistry } from '../../src/tools/index.js';
import { connectInMemory } from './helpers.js';

/**
 * What tools/list costs an assistant's context, measured as sent (compact JSON; sizes are
 * deterministic). `model`: what the model reads of each tool (name, description, input schema);
 * `whole`: the list with titles, output schemas and annotations. The ceilings are the sizes this
 * release reached, so any growth fails here; the goal is 40 KB and 100 KB (docs/mcp.md, "Size").
 */
const CEILING = { model: 57_000, whole: 124_000 };

const registry = createRegistry();
let listed: Tool[] = [];

beforeAll(async () => {
  const client = await connectInMemory({
    registry,
    getExecutor: () => Promise.reject(new Error('tools/list must not need the executor')),
    actor: mcpStdioActor(),
  });
  listed = (await client.listTools()).tools;
  await client.close();
});

afterAll(() => {
  listed = [];
});

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

describe('the size of tools/list (the default server)', () => {
  it('keeps what the model reads, and the whole list, under their ceilings', () => {
    const model = listed.reduce(
      (sum, tool) =>
        sum + bytes({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
      0,
    );
    const whole = bytes({ tools: listed });
    expect(model).toBeLessThanOrEqual(CEILING.model);
    expect(whole).toBeLessThanOrEqual(CEILING.whole);
  });

  it('lists the tools in the registry’s order, the same on every connection', async () => {
    const again = await connectInMemory(
      { registry, getExecutor: () => Promise.reject(new Error('not needed')), actor: mcpStdioActor() },
      {},
      'legacy',
    );
    const second = (await again.listTools()).tools;
    await again.close();
    expect(second).toEqual(listed);
    expect(listed.map((t) => t.name)).toEqual(registry.list({ noSecretInput: true }).map((t) => t.name));
  });
});
