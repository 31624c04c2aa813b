import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallToolResult, Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema as V1ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpStdioActor } from '../../src/core/actors.js';
import { createRegistry } from '../../src/tools/index.js';
import { runCli } from '../helpers/cli.js';
import { connectInMemory, MODERN, PAYOUT, textOf } from './helpers.js';

// The shipped bundle (npm test builds before running vitest), started as an assistant starts it.
const DIST = join(import.meta.dirname, '..', '..', 'dist');
const STDIO = join(DIST, 'mcp-bundle', 'bankops-mcp.mjs');
const registry = createRegistry();

interface Spawned {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

/**
 * The server started as an assistant starts it, with the SDK's (v2) client pinned to the
 * 2026-07-28 protocol; `negotiation` 'auto' probes first, 'legacy' (the client's default) opens
 * with the 2025 initialize.
 */
async function spawnServer(
  args: readonly string[],
  env: Record<string, string>,
  capabilities: ClientCapabilities = {},
  negotiation: 'pin' | 'auto' | 'legacy' = 'pin',
): Promise<Spawned> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const mode = negotiation === 'pin' ? { pin: MODERN } : negotiation;
  const client = new Client(
    { name: 'bankops-stdio-test', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode } },
  );
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** The same, with the previous SDK's client (v1, protocol 2025-11-25), as many assistants still are. */
async function spawnWithV1(args: readonly string[], env: Record<string, string>, capabilities = {}) {
  const transport = new V1StdioClientTransport({ command: process.execPath, args: [...args], env });
  const client = new V1Client({ name: 'bankops-stdio-v1', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

let dir: string;
let env: Record<string, string>;
let dbPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bankops-mcp-stdio-'));
  dbPath = join(dir, 'bankops.db');
  env = { BANKOPS_DB: dbPath };
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('node dist/mcp-bundle/bankops-mcp.mjs with the SDK’s stdio client on protocol 2026-07-28', () => {
  let server: Spawned;

  beforeAll(async () => {
    server = await spawnServer([STDIO], env);
  });

  afterAll(async () => {
    await server?.client.close();
  });

  it('answers tools/list from the build’s listings before any runtime exists: no database yet', async () => {
    expect(server.client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const { tools } = await server.client.listTools();
    expect(tools.length).toBe(registry.list({ noSecretInput: true }).length);
    // The bundle lists what the build wrote (tool-listings.json): it must be what the server
    // computes from the registry (tests run in-process, where nothing is precomputed).
    const listing = await connectInMemory({
      registry,
      getExecutor: () => Promise.reject(new Error('not needed to list')),
      actor: mcpStdioActor(),
    });
    expect(tools).toEqual((await listing.listTools()).tools);
    await listing.close();
    expect(existsSync(dbPath)).toBe(false);
    expect(server.stderr()).toContain('"message":"bankops mcp serving on stdio"');
    expect(server.stderr()).not.toContain('runtime ready');
  });

  it('builds the runtime once for the first calls, even when they arrive together', async () => {
    const results = await Promise.all([
      call(server.client, 'get_balances'),
      call(server.client, 'list_accounts'),
      call(server.client, 'get_balances'),
    ]);
    for (const result of results) expect(result.isError, textOf(result)).not.toBe(true);
    const balances = results[0]?.structuredContent as { balances: { currency: string }[] };
    expect(balances.balances.map((b) => b.currency)).toContain('USD');
    expect(server.stderr().match(/bankops runtime ready/g)).toHaveLength(1);
    expect(existsSync(dbPath)).toBe(true);
  });

  it('refuses invalid input naming the field', async () => {
    const result = await call(server.client, 'get_account', { accountId: 7 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('accountId');
  });

  it('payout: pending_approval; bob approves with the CLI on the same database; get_approval shows succeeded', async () => {
    const requested = await call(server.client, 'create_payout', PAYOUT);
    expect(requested.isError, textOf(requested)).not.toBe(true);
    const { approvalId, status } = requested.structuredContent as { approvalId: string; status: string };
    expect(status).toBe('pending_approval');

    const approved = await runCli(['approvals', 'approve', approvalId, '--as', 'bob'], env);
    expect(approved.code, approved.stderr).toBe(0);

    const followed = await call(server.client, 'get_approval', { approvalId });
    expect(followed.isError, textOf(followed)).not.toBe(true);
    expect(followed.structuredContent).toMatchObject({
      id: approvalId,
      state: 'succeeded',
      requester: 'mcp:stdio',
      approvals: [{ approver: 'cli:bob' }],
      result: { payoutId: expect.stringMatching(/\S/) },
    });
  });

  it('logs JSON lines to stderr only, and never a secret of the configuration', () => {
    const lines = server.stderr().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(server.stderr()).not.toContain('sandbox-api-key');
  });

  it('closes the runtime and exits by itself when its stdin closes', async () => {
    const pid = server.transport.pid;
    expect(pid).toEqual(expect.any(Number));
    const started = performance.now();
    await server.client.close();
    // The SDK's client waits 2 s for the exit before it sends SIGTERM: well under that means on its own.
    expect(performance.now() - started).toBeLessThan(1800);
    expect(server.stderr()).toContain('"message":"bankops mcp stopped"');
    expect(() => process.kill(pid!, 0)).toThrow();
  });
});

describe('stdio: clients of every protocol era', () => {
  it('serves a probing client on 2026-07-28, and the 2025 handshake of v2 and v1 clients', async () => {
    const auto = await spawnServer([STDIO], env, {}, 'auto');
    const legacy = await spawnServer([STDIO], env, {}, 'legacy');
    const v1 = await spawnWithV1([STDIO], env);
    try {
      expect(auto.client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(legacy.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const lists = await Promise.all([auto.client.listTools(), legacy.client.listTools(), v1.listTools()]);
      // tools/list is the same whoever asks.
      expect(lists[1].tools).toEqual(lists[0].tools);
      expect(lists[2].tools).toEqual(lists[0].tools);
      const read = (await v1.callTool({ name: 'get_balances', arguments: {} })) as CallToolResult;
      expect(read.isError, textOf(read)).not.toBe(true);
      expect(read.structuredContent).toMatchObject({ balances: expect.any(Array) });
    } finally {
      await Promise.allSettled([auto.client.close(), legacy.client.close(), v1.close()]);
    }
  });

  it('asks a v1 client to confirm a write with elicitation, as before', async () => {
    const v1 = await spawnWithV1([STDIO], env, { elicitation: {} });
    let asked = '';
    v1.setRequestHandler(V1ElicitRequestSchema, async (request) => {
      asked = request.params.message;
      return { action: 'decline' };
    });
    try {
      const result = (await v1.callTool({
        name: 'create_subscription',
        arguments: { event_name: 'kyc_complete', subscription_type: 'n' },
      })) as CallToolResult;
      expect(asked).toContain('(create_subscription)');
      expect(textOf(result)).toContain('the user declined to confirm it');
    } finally {
      await v1.close();
    }
  });
});

describe('stdio options', () => {
  it('offers the tools whose input is a secret only with --secret-inputs', async () => {
    const secret = registry
      .list()
      .filter((t) => t.secretInput === true)
      .map((t) => t.name);
    expect(secret.sort()).toEqual(['activate_card_a', 'assign_card_a', 'assign_card_b', 'reset_pin_a']);
    const plain = await spawnServer([STDIO], env);
    const flagged = await spawnServer([join(DIST, 'cli.js'), 'mcp', '--secret-inputs'], env);
    try {
      const names = (await plain.client.listTools()).tools.map((t) => t.name);
      for (const name of secret) expect(names).not.toContain(name);
      const withFlag = (await flagged.client.listTools()).tools.map((t) => t.name);
      expect(withFlag).toEqual(registry.list().map((t) => t.name));
    } finally {
      await Promise.allSettled([plain.client.close(), flagged.client.close()]);
    }
  });

  it('--toolsets issuing_b offers that toolset and the approval tools only', async () => {
    const server = await spawnServer([STDIO, '--toolsets', 'issuing_b'], env);
    try {
      const names = (await server.client.listTools()).tools.map((t) => t.name).sort();
      const expected = registry.list({ toolsets: ['issuing_b'], noSecretInput: true }).map((t) => t.name);
      expect(names).toEqual([...expected, 'get_approval', 'list_approvals'].sort());
    } finally {
      await server.client.close();
    }
  });

  it('`bankops mcp --read-only` serves the same server through the CLI, reads only', async () => {
    const server = await spawnServer([join(DIST, 'cli.js'), 'mcp', '--read-only'], env);
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        registry
          .list({ readOnly: true, noSecretInput: true })
          .map((t) => t.name)
          .sort(),
      );
      const result = await call(server.client, 'list_accounts');
      expect(result.isError, textOf(result)).not.toBe(true);
    } finally {
      await server.client.close();
    }
  });

  it('asks a client that offers elicitation to confirm a write, unless started with --no-confirm', async () => {
    const subscribe = { event_name: 'wallet_create', subscription_type: 'n' };
    for (const [args, expected] of [
      [[STDIO], 1],
      [[join(DIST, 'cli.js'), 'mcp', '--no-confirm'], 0],
    ] as const) {
      const server = await spawnServer(args, env, { elicitation: {} });
      let asked = 0;
      server.client.setRequestHandler('elicitation/create', async () => {
        asked += 1;
        return { action: 'decline' };
      });
      try {
        const result = await call(server.client, 'create_subscription', subscribe);
        expect(asked, args.join(' ')).toBe(expected);
        if (expected === 1) expect(textOf(result)).toContain('the user declined to confirm it');
        else expect(result.isError, textOf(result)).not.toBe(true);
      } finally {
        await server.client.close();
      }
    }
  });

  it('shuts down in order when the assistant closes its end of stdout', async () => {
    for (const args of [[STDIO], [join(DIST, 'cli.js'), 'mcp']]) {
      const child = spawn(process.execPath, args, {
        env: { ...process.env, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      request(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      });
      await once(child.stdout, 'data');
      child.stdout.destroy();
      const exited = once(child, 'exit');
      // Answers now go to a closed pipe; the server notices at its next write.
      for (let id = 2; id < 6; id += 1) request(id, 'tools/list');
      const [code] = await exited;
      expect(code, args.join(' ')).toBe(0);
      expect(stderr, args.join(' ')).toContain('"why":"stdout closed"');
      expect(stderr, args.join(' ')).toContain('bankops mcp stopped');
    }
  });

  it('refuses an unknown toolset on stderr with exit 2, writing nothing to stdout', async () => {
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [STDIO, '--toolsets', 'banking,nope'], { env }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr }),
      );
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown toolset nope');
  });
});
