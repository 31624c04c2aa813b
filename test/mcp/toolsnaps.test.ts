import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpStdioActor } from '../../src/core/actors.js';
import { createRegistry } from '../../src/tools/index.js';
import { connectInMemory } from './helpers.js';

// github-mcp-server's __toolsnaps__: every tool's schemas as the server advertises them, committed,
// so a change to what assistants see is a visible diff. `UPDATE_TOOLSNAPS=1 npx vitest run test/mcp`
// rewrites them (and removes those of tools that are gone).

const DIR = join(import.meta.dirname, '__toolsnaps__');
const UPDATE = process.env.UPDATE_TOOLSNAPS === '1';
const HOW = 'if the change is intended, run UPDATE_TOOLSNAPS=1 npx vitest run test/mcp and commit the file';

const registry = createRegistry();
let listed: Tool[] = [];

beforeAll(async () => {
  const client = await connectInMemory({
    registry,
    getExecutor: () => Promise.reject(new Error('tools/list must not need the executor')),
    actor: mcpStdioActor(),
    secretInputs: true,
  });
  listed = (await client.listTools()).tools;
  await client.close();
  if (UPDATE) mkdirSync(DIR, { recursive: true });
});

const snapshotOf = (tool: Tool) => ({
  name: tool.name,
  annotations: tool.annotations,
  inputSchema: tool.inputSchema,
  outputSchema: tool.outputSchema,
});
const fileOf = (name: string) => join(DIR, `${name}.snap.json`);

describe('tool schema snapshots (__toolsnaps__)', () => {
  it.each(registry.names())('%s matches its snapshot', (name) => {
    const tool = listed.find((t) => t.name === name);
    expect(tool, `${name} is not in tools/list`).toBeDefined();
    const current = snapshotOf(tool!);
    const file = fileOf(name);
    if (UPDATE) {
      writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
      return;
    }
    if (!existsSync(file)) expect.fail(`tool ${name} has no snapshot ${file}; ${HOW}`);
    const saved: unknown = JSON.parse(readFileSync(file, 'utf8'));
    expect(current, `tool ${name}: its MCP schemas differ from ${file}; ${HOW}`).toEqual(saved);
  });

  it('keeps no snapshot of a tool that no longer exists', () => {
    const stale = readdirSync(DIR)
      .filter((file) => file.endsWith('.snap.json'))
      .map((file) => file.slice(0, -'.snap.json'.length))
      .filter((name) => registry.get(name) === undefined);
    if (UPDATE) for (const name of stale) rmSync(fileOf(name));
    else expect(stale, `snapshots of tools that are gone: ${stale.join(', ')}; ${HOW}`).toEqual([]);
  });
});

afterAll(() => {
  if (UPDATE) process.stderr.write(`toolsnaps: wrote ${registry.size} snapshots to ${DIR}\n`);
});
