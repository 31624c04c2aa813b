import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPolicyPath } from '../../src/core/policy/default-path.js';
import { runCli } from '../helpers/cli.js';
import { testConfig } from '../helpers/core.js';
import { type RunningSandbox, serviceEnv, startTestSandbox } from '../helpers/sandbox.js';
import { MODERN, PAYOUT, textOf } from './helpers.js';

// Two `bankops serve` processes on one database and one service, as replicas behind a load
// balancer without sticky routing: a 2026-07-28 client's requests may land on either.

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const KEY = `bk_${randomBytes(24).toString('hex')}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let dir: string;
let sandbox: RunningSandbox;
let env: Record<string, string>;
const children: ChildProcess[] = [];
const replicas: string[] = [];

function policy(listed: boolean): string {
  const shipped = readFileSync(defaultPolicyPath(), 'utf8');
  return `roles: [viewer, operator, approver, admin, verifier, treasury, controller]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator, approver]
  - match: { mcpKey: replicas-test }
    roles: [viewer, operator]
mcpKeys:
${listed ? `  - { name: replicas-test, sha256: ${sha256(KEY)} }` : '  []'}
${shipped.slice(shipped.indexOf('\nrules:'))}`.replace('mcpKeys:\n  []', 'mcpKeys: []');
}

/** Runs the built `bankops serve` on a free port and waits until it says where it listens. */
async function serve(): Promise<string> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BANKOPS_')));
  // Replicas on one file: no local Slack workspace (one process's memory; MCP is what is tested here).
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-try'], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /MCP over HTTP on (http:\/\/\S+\/mcp)[\s\S]*Ctrl-C to stop/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bankops-replicas-'));
  sandbox = await startTestSandbox();
  const policyPath = join(dir, 'policy.yaml');
  writeFileSync(policyPath, policy(true));
  // The environment testConfig reads, so both replicas and the CLI use this sandbox and database.
  const config = testConfig(sandbox, { dbPath: join(dir, 'bankops.db'), policyPath });
  const c = sandbox.credentials;
  env = {
    ...serviceEnv(sandbox.url, c),
    BANKOPS_DB: config.databasePath,
    BANKOPS_POLICY: policyPath,
  };
  replicas.push(...(await Promise.all([serve(), serve()])));
}, 30_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A v2 client pinned to 2026-07-28 whose requests go to the replicas in turn; where each went. */
async function alternatingClient(): Promise<{ client: Client; served: string[] }> {
  const served: string[] = [];
  let turn = 0;
  const transport = new StreamableHTTPClientTransport(new URL(replicas[0]!), {
    requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
    fetch: (_url, init) => {
      const target = replicas[turn % replicas.length]!;
      turn += 1;
      served.push(target);
      return fetch(target, init);
    },
  });
  const client = new Client(
    { name: 'replicas-test', version: '1' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(transport);
  return { client, served };
}

describe('two bankops serve replicas on one database, one 2026-07-28 client', () => {
  it('answers the client from either replica: list, a payout to approve, the confirmation of a write', async () => {
    const { client, served } = await alternatingClient();
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('create_payout');

      const requested = (await client.callTool({
        name: 'create_payout',
        arguments: PAYOUT,
      })) as CallToolResult;
      expect(requested.isError, textOf(requested)).not.toBe(true);
      const { approvalId } = requested.structuredContent as { approvalId: string };
      // Against a service (not the embedded sandbox) the CLI decides as the OS account running it.
      const approved = await runCli(['approvals', 'approve', approvalId], env);
      expect(approved.code, approved.stderr).toBe(0);
      const followed = (await client.callTool({
        name: 'get_approval',
        arguments: { approvalId },
      })) as CallToolResult;
      expect(followed.structuredContent).toMatchObject({ id: approvalId, state: 'succeeded' });

      // The question is asked by one replica and the answer taken by the other.
      let asked = 0;
      client.setRequestHandler('elicitation/create', async () => {
        asked += 1;
        return { action: 'accept', content: { confirm: true } };
      });
      const before = served.length;
      const subscribed = (await client.callTool({
        name: 'create_subscription',
        arguments: { event_name: 'wallet_create', subscription_type: 'n' },
      })) as CallToolResult;
      expect(subscribed.isError, textOf(subscribed)).not.toBe(true);
      expect(subscribed.structuredContent).toMatchObject({ status: 'ok' });
      expect(asked).toBe(1);
      expect(new Set(served.slice(before)).size).toBe(2);
      expect(new Set(served)).toEqual(new Set(replicas));
    } finally {
      await client.close();
    }
  });

  it('checks the key on every request: a key taken out of the policy is refused at once by both', async () => {
    const { client } = await alternatingClient();
    try {
      writeFileSync(env.BANKOPS_POLICY!, policy(false));
      // Each replica watches the file; give the watchers a moment, then every request is refused.
      const deadline = Date.now() + 5_000;
      let refused = 0;
      while (refused < 2 && Date.now() < deadline) {
        refused = 0;
        for (const url of replicas) {
          const response = await fetch(url, {
            method: 'POST',
            headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
            body: '{}',
          });
          if (response.status === 401) refused += 1;
        }
      }
      expect(refused).toBe(2);
      await expect(client.listTools()).rejects.toThrow();
    } finally {
      writeFileSync(env.BANKOPS_POLICY!, policy(true));
      await client.close().catch(() => {});
    }
  });

  it('refuses a request naming a foreign Host, even without an Origin (DNS rebinding)', async () => {
    const url = new URL(replicas[0]!);
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: '/mcp',
            method: 'POST',
            headers: { Host: host, Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      });
    expect(await status(`attacker.example:${url.port}`)).toBe(403);
    expect(await status(`localhost:${url.port}`)).not.toBe(403);
  });
});
