import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type ClientCapabilities,
  ElicitRequestSchema,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { startServe } from '../../src/app/serve.js';
import { cliActor } from '../../src/core/actors.js';
import { createLogger } from '../../src/core/log.js';
import { defaultPolicyPath } from '../../src/core/policy/default-path.js';
import type { McpHttpHandlerOptions } from '../../src/mcp/http/handler.js';
import { MCP_PATH } from '../../src/mcp/http.js';

const KEY = `bk_${randomBytes(24).toString('hex')}`;
const VIEWER_KEY = `bk_${randomBytes(24).toString('hex')}`;
const WRONG_KEY = `bk_${randomBytes(24).toString('hex')}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface TestKey {
  name: string;
  key: string;
  roles: string;
}

/** The shipped rules, with MCP keys listed by digest and their names given roles. */
function policyYaml(keys: readonly TestKey[], firstRules = ''): string {
  const shipped = readFileSync(defaultPolicyPath(), 'utf8');
  const rules = shipped.slice(shipped.indexOf('\nrules:')).replace('\nrules:\n', `\nrules:\n${firstRules}`);
  return `roles: [viewer, operator, approver, admin, verifier, treasury, controller]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator, approver]
${keys.map((k) => `  - match: { mcpKey: ${k.name} }\n    roles: ${k.roles}`).join('\n')}
mcpKeys:
${keys.map((k) => `  - { name: ${k.name}, sha256: ${sha256(k.key)} }`).join('\n')}
${rules}`;
}

const ASSISTANT: TestKey = { name: 'assistant-test', key: KEY, roles: '[viewer, operator]' };
const VIEWER: TestKey = { name: 'viewer-test', key: VIEWER_KEY, roles: '[viewer]' };
const BOTH_KEYS = [ASSISTANT, VIEWER];

const PAYOUT = {
  beneficiaryId: 'ben_de_swift_0001',
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  destinationAssetCode: 'EUR',
  destinationRail: 'SWIFT',
  amount: 1000,
  side: 'SOURCE',
  purposeCode: 'GOODS_PURCHASED',
};

let dir: string;
let policyPath: string;
let runtime: Runtime;
let mcp: RunningMcp;

interface RunningMcp {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** MCP as `bankops serve` mounts it (Slack off): the one listener's `/mcp`, with these options. */
async function startMcp(
  options: Omit<McpHttpHandlerOptions, 'runtime'> & { host?: string } = {},
): Promise<RunningMcp> {
  const { host = '127.0.0.1', ...mcpOptions } = options;
  const serve = await startServe({
    runtime,
    host,
    port: 0,
    mcp: mcpOptions,
    settings: { slack: { enabled: false, why: 'not in this test' } },
  });
  return { url: `${serve.url}${MCP_PATH}`, port: serve.port, close: () => serve.close() };
}
const logLines: string[] = [];
const clients: Client[] = [];

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

async function connect(
  key: string | undefined,
  options: {
    url?: string;
    fetch?: FetchLike;
    headers?: Record<string, string>;
    capabilities?: ClientCapabilities;
  } = {},
): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(options.url ?? mcp.url), {
    requestInit: {
      headers: { ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }), ...options.headers },
    },
    reconnectionOptions: {
      initialReconnectionDelay: 50,
      maxReconnectionDelay: 200,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 10,
    },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const client = new Client(
    { name: 'bankops-http-test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

/** A plain HTTP request to the MCP endpoint, as any client (or attacker) could send it. */
async function post(body: unknown, headers: Record<string, string> = {}, url = mcp.url) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

/** A session opened by hand (initialize, then initialized): the headers that use it. */
async function openRawSession(key: string, url = mcp.url): Promise<Record<string, string>> {
  const opened = await post(INITIALIZE, { Authorization: `Bearer ${key}` }, url);
  expect(opened.status).toBe(200);
  const headers = {
    Authorization: `Bearer ${key}`,
    'Mcp-Session-Id': opened.headers.get('mcp-session-id')!,
    'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION,
  };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers, url);
  return headers;
}

/** Makes the next banking call of the embedded sandbox take `latencyMs`. */
async function slowNextBankingCall(latencyMs: number): Promise<void> {
  const fault = await fetch(`${(await runtime.embedded!.start()).url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path: '/svc/banking/*', latencyMs, times: 1 }),
  });
  expect(fault.ok).toBe(true);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bankops-mcp-http-'));
  policyPath = join(dir, 'policy.yaml');
  writeFileSync(policyPath, policyYaml(BOTH_KEYS));
  runtime = await createRuntime(
    loadConfig({ BANKOPS_DB: join(dir, 'bankops.db'), BANKOPS_POLICY: policyPath }),
    {
      log: createLogger('debug', (line) => logLines.push(line)),
    },
  );
  mcp = await startMcp({ allowedOrigins: ['https://assistant.example'] });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await mcp?.close();
  await runtime?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('MCP over Streamable HTTP', () => {
  it('listens on loopback at /mcp', () => {
    expect(mcp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('lists the tools to a client with a key from the policy', async () => {
    const { client } = await connect(KEY);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('list_accounts');
    expect(names).toContain('create_payout');
    for (const tool of runtime.registry.list({ toolsets: ['banking'] })) expect(names).toContain(tool.name);
    const payout = tools.find((t) => t.name === 'create_payout');
    expect(payout?.inputSchema.type).toBe('object');
    expect(payout?.annotations?.readOnlyHint).toBe(false);
  });

  it('calls a read and returns structuredContent', async () => {
    const { client } = await connect(KEY);
    const result = await client.callTool({ name: 'list_accounts', arguments: {} });
    expect(result.isError).not.toBe(true);
    const accounts = (result.structuredContent as { accounts: { accountId: string }[] }).accounts;
    expect(accounts.map((a) => a.accountId)).toContain('acc_usd_0001');
  });

  it('opens an approval for a payout; a person approves; the assistant sees it succeeded', async () => {
    const { client } = await connect(KEY);
    const requested = await client.callTool({ name: 'create_payout', arguments: PAYOUT });
    expect(requested.isError).not.toBe(true);
    const pending = requested.structuredContent as { status: string; approvalId: string };
    expect(pending.status).toBe('pending_approval');
    expect(pending.approvalId).toMatch(/^apr_/);

    const stored = await runtime.executor.getApproval(pending.approvalId);
    expect(stored).toMatchObject({
      state: 'pending',
      requester: 'mcp:assistant-test',
      tool: 'create_payout',
    });

    const approved = await runtime.executor.approve(pending.approvalId, cliActor('bob'));
    expect(approved.status).toBe('ok');
    expect((await runtime.executor.getApproval(pending.approvalId))?.state).toBe('succeeded');

    const followed = await client.callTool({
      name: 'get_approval',
      arguments: { approvalId: pending.approvalId },
    });
    expect(followed.isError).not.toBe(true);
    expect(followed.structuredContent).toMatchObject({ id: pending.approvalId, state: 'succeeded' });
    expect(JSON.stringify(followed.structuredContent)).toContain('payoutId');
  });

  it('refuses a request without a key, or with a key the policy does not list, with 401', async () => {
    for (const headers of [{}, { Authorization: `Bearer ${WRONG_KEY}` }, { Authorization: `Basic ${KEY}` }]) {
      const res = await post(INITIALIZE, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="bankops"/);
      const body = JSON.parse(res.text);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(res.text).not.toContain(WRONG_KEY);
      expect(res.text).not.toContain(KEY);
    }
    // And through the SDK's client: connecting fails.
    await expect(connect(WRONG_KEY)).rejects.toThrow(/401|Unauthorized/);
    await expect(connect(undefined)).rejects.toThrow(/401|Unauthorized/);
  });

  it('refuses a foreign Origin with 403, even with a good key; allows its own and configured ones', async () => {
    const evil = await post(INITIALIZE, { Authorization: `Bearer ${KEY}`, Origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.text).error.message).toMatch(/Origin/);
    const nullOrigin = await post(INITIALIZE, { Authorization: `Bearer ${KEY}`, Origin: 'null' });
    expect(nullOrigin.status).toBe(403);

    for (const origin of [
      `http://localhost:${mcp.port}`,
      `http://127.0.0.1:${mcp.port}`,
      'https://assistant.example',
    ]) {
      const ok = await post(INITIALIZE, { Authorization: `Bearer ${KEY}`, Origin: origin });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
      expect(ok.headers.get('mcp-session-id')).toBeTruthy();
    }
  });

  it('binds a session to the key that opened it', async () => {
    const { client, transport } = await connect(KEY);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const headers = { 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION };

    const foreign = await post(list, { ...headers, Authorization: `Bearer ${VIEWER_KEY}` });
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.text).error.message).toBe('Session not found');

    // Through the SDK: a client of the other key that joins the session by id is refused too.
    const hijack = new StreamableHTTPClientTransport(new URL(mcp.url), {
      sessionId,
      requestInit: { headers: { Authorization: `Bearer ${VIEWER_KEY}` } },
    });
    const intruder = new Client({ name: 'intruder', version: '1' });
    await intruder.connect(hijack);
    clients.push(intruder);
    await expect(intruder.listTools()).rejects.toThrow(/404|Session not found/);

    // The owner's session is untouched.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const own = await post(list, { ...headers, Authorization: `Bearer ${KEY}` });
    expect(own.status).toBe(200);
  });

  it('acts as the key: a viewer key can read and is denied writes by the policy', async () => {
    const { client } = await connect(VIEWER_KEY);
    const read = await client.callTool({ name: 'list_accounts', arguments: {} });
    expect(read.isError).not.toBe(true);
    const write = await client.callTool({ name: 'create_payout', arguments: PAYOUT });
    expect(write.isError).toBe(true);
    expect(JSON.stringify(write.content)).toMatch(/denied|not allowed|no rule/i);
  });

  it('ends a session on DELETE', async () => {
    const { transport } = await connect(KEY);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
      { Authorization: `Bearer ${KEY}`, 'Mcp-Session-Id': sessionId },
    );
    expect(after.status).toBe(404);
  });

  it('refuses requests other than initialize without a session, and unknown sessions', async () => {
    const noSession = await post(
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} },
      {
        Authorization: `Bearer ${KEY}`,
      },
    );
    expect(noSession.status).toBe(400);
    const unknown = await post(
      { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} },
      {
        Authorization: `Bearer ${KEY}`,
        'Mcp-Session-Id': '00000000-0000-4000-8000-000000000000',
      },
    );
    expect(unknown.status).toBe(404);
    const elsewhere = await post(
      INITIALIZE,
      { Authorization: `Bearer ${KEY}` },
      mcp.url.replace('/mcp', '/other'),
    );
    expect(elsewhere.status).toBe(404);
  });

  it('limits the body size (413) and refuses bodies that are not JSON (400)', async () => {
    const huge = JSON.stringify({
      ...INITIALIZE,
      params: { ...INITIALIZE.params, pad: 'x'.repeat(1_100_000) },
    });
    const tooLarge = await post(huge, { Authorization: `Bearer ${KEY}` });
    expect(tooLarge.status).toBe(413);
    const notJson = await post('{nope', { Authorization: `Bearer ${KEY}` });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.text).error.code).toBe(-32700);
  });

  it('applies a policy reload to the next request: a removed key stops working in its open session', async () => {
    const { client } = await connect(VIEWER_KEY);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    writeFileSync(policyPath, policyYaml([ASSISTANT]));
    expect(runtime.policy.reload()).toEqual({ ok: true });
    try {
      await expect(client.listTools()).rejects.toThrow(/401|Unauthorized/);
      const { client: still } = await connect(KEY);
      expect((await still.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      writeFileSync(policyPath, policyYaml(BOTH_KEYS));
      expect(runtime.policy.reload()).toEqual({ ok: true });
    }
  });

  it('asks the user to confirm a write on the call’s own stream, and runs it only on yes', async () => {
    const { client } = await connect(KEY, { capabilities: { elicitation: {} } });
    const questions: string[] = [];
    let yes = false;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { confirm: yes } };
    });
    const update = (mobile: string) =>
      client.callTool({
        name: 'update_cardholder_b',
        arguments: { cardholderId: 'chb_demo_chloe', mobile },
      });
    const declined = await update('81230001');
    expect(declined.isError).toBe(true);
    expect(JSON.stringify(declined.content)).toContain('the user declined to confirm it');
    yes = true;
    const done = await update('81230002');
    expect(done.isError).not.toBe(true);
    expect(done.structuredContent).toMatchObject({ status: 'ok' });
    expect(questions).toHaveLength(2);
    expect(questions[1]).toContain('- mobile: 81230002');
    expect(questions[1]).toMatch(
      /This changes data \(at the service, or bankops's own records\)\. Confirm to go ahead\.$/,
    );
    const { cardholder } = (
      await client.callTool({
        name: 'get_cardholder_b',
        arguments: { cardholderId: 'chb_demo_chloe' },
      })
    ).structuredContent as { cardholder: { mobile: string } };
    expect(cardholder.mobile).toBe('81230002');
  });

  it('closes the open SSE stream of a session whose key the policy no longer lists', async () => {
    const headers = await openRawSession(VIEWER_KEY);
    const stream = await fetch(mcp.url, { headers: { ...headers, Accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })().catch(() => 'ended');
    const still = await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 1_500, 'open'))]);
    expect(still).toBe('open');
    // As docs/mcp-http.md says: delete the key's mcpKeys line; its actor entry may stay.
    writeFileSync(
      policyPath,
      policyYaml(BOTH_KEYS).replace(`  - { name: viewer-test, sha256: ${sha256(VIEWER_KEY)} }\n`, ''),
    );
    expect(runtime.policy.reload()).toEqual({ ok: true });
    try {
      const started = Date.now();
      expect(await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5_000, 'open'))])).toBe(
        'ended',
      );
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(logLines.some((line) => line.includes('key revoked') && line.includes('viewer-test'))).toBe(
        true,
      );
    } finally {
      writeFileSync(policyPath, policyYaml(BOTH_KEYS));
      expect(runtime.policy.reload()).toEqual({ ok: true });
    }
  });

  it('lets a tool call in flight when its key is revoked finish, then ends the session', async () => {
    const headers = await openRawSession(VIEWER_KEY);
    await slowNextBankingCall(1_500);
    const call = post(
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'list_accounts', arguments: {} } },
      headers,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(policyPath, policyYaml([ASSISTANT]));
    expect(runtime.policy.reload()).toEqual({ ok: true });
    try {
      const answered = await call;
      expect(answered.status).toBe(200);
      expect(answered.text).toContain('acc_usd_0001');
      expect(answered.text).not.toContain('"isError":true');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      writeFileSync(policyPath, policyYaml(BOTH_KEYS));
      expect(runtime.policy.reload()).toEqual({ ok: true });
    }
    // The key is listed again, but its old session is gone.
    const after = await post({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: {} }, headers);
    expect(after.status).toBe(404);
  });

  it('ends a revoked key’s session after a grace even if a call never answers (a cancelled one)', async () => {
    const graceful = await startMcp({ revokeGraceMs: 300 });
    try {
      const headers = await openRawSession(VIEWER_KEY, graceful.url);
      await slowNextBankingCall(10_000);
      const stuck = post(
        { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'list_accounts', arguments: {} } },
        headers,
        graceful.url,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      writeFileSync(policyPath, policyYaml([ASSISTANT]));
      expect(runtime.policy.reload()).toEqual({ ok: true });
      try {
        await stuck;
        expect(Date.now() - started).toBeLessThan(3_000);
      } finally {
        writeFileSync(policyPath, policyYaml(BOTH_KEYS));
        expect(runtime.policy.reload()).toEqual({ ok: true });
      }
      const after = await post(
        { jsonrpc: '2.0', id: 12, method: 'tools/list', params: {} },
        headers,
        graceful.url,
      );
      expect(after.status).toBe(404);
    } finally {
      await fetch(`${(await runtime.embedded!.start()).url}/_sandbox/faults`, { method: 'DELETE' }).catch(
        () => undefined,
      );
      await graceful.close();
    }
  });

  it('resumes a stream that broke before the answer: the client reconnects with Last-Event-ID', async () => {
    const network = flakyNetwork();
    const { client } = await connect(KEY, { fetch: network.fetch });
    const result = await client.callTool({ name: 'list_accounts', arguments: {} }, undefined, {
      timeout: 10_000,
    });
    expect(network.cut()).toBe(true);
    expect(network.lastEventIds.length).toBeGreaterThan(0);
    const accounts = (result.structuredContent as { accounts: { accountId: string }[] }).accounts;
    expect(accounts.map((a) => a.accountId)).toContain('acc_usd_0001');
  });

  it('replays the progress notifications a broken stream missed, then the answer', async () => {
    // A policy under which the assistant pays out directly, so the payout runs (and reports
    // progress) inside the call instead of waiting for an approver.
    writeFileSync(
      policyPath,
      policyYaml(BOTH_KEYS, '  - name: direct-payouts\n    tools: [create_payout]\n    allow: [operator]\n'),
    );
    expect(runtime.policy.reload()).toEqual({ ok: true });
    try {
      const network = flakyNetwork();
      const { client } = await connect(KEY, { fetch: network.fetch });
      const progress: string[] = [];
      const result = await client.callTool({ name: 'create_payout', arguments: PAYOUT }, undefined, {
        timeout: 10_000,
        onprogress: (p) => progress.push(p.message ?? ''),
      });
      expect(network.cut()).toBe(true);
      expect(network.lastEventIds.length).toBeGreaterThan(0);
      expect(result.isError).not.toBe(true);
      expect(result.structuredContent).toMatchObject({
        status: 'ok',
        result: { payoutId: expect.any(String) },
      });
      // The stream broke before any notification was sent: the tool's own progress message came
      // back through the resumed stream.
      expect(progress.some((m) => /sending the payout/.test(m))).toBe(true);
    } finally {
      writeFileSync(policyPath, policyYaml(BOTH_KEYS));
      expect(runtime.policy.reload()).toEqual({ ok: true });
    }
  });

  it('ends idle sessions', async () => {
    const short = await startMcp({ idleTimeoutMs: 100 });
    try {
      const opened = await post(INITIALIZE, { Authorization: `Bearer ${KEY}` }, short.url);
      expect(opened.status).toBe(200);
      const sessionId = opened.headers.get('mcp-session-id')!;
      await new Promise((resolve) => setTimeout(resolve, 400));
      const later = await post(
        { jsonrpc: '2.0', id: 6, method: 'tools/list', params: {} },
        {
          Authorization: `Bearer ${KEY}`,
          'Mcp-Session-Id': sessionId,
        },
        short.url,
      );
      expect(later.status).toBe(404);
    } finally {
      await short.close();
    }
  });

  it('never locks a key out: 100 abandoned sessions, then a new client connects at once', async () => {
    const small = await startMcp();
    try {
      // What a reconnecting assistant leaves behind: the v1 client's close() sends no DELETE.
      for (let i = 0; i < 100; i += 1) {
        const { client } = await connect(KEY, { url: small.url });
        await client.close();
      }
      const started = Date.now();
      const { client } = await connect(KEY, { url: small.url });
      const read = await client.callTool({ name: 'get_balances', arguments: {} });
      expect(read.isError).not.toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(
        logLines.filter((line) => line.includes('evicted (least recently used)')).length,
      ).toBeGreaterThan(80);
    } finally {
      await small.close();
    }
  });

  it('makes room for a session by ending the least recently used idle one; refuses only when all are busy', async () => {
    const small = await startMcp({ maxSessionsPerKey: 2 });
    const streams: AbortController[] = [];
    const listOn = (headers: Record<string, string>) =>
      post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, headers, small.url);
    const listen = async (headers: Record<string, string>) => {
      const abort = new AbortController();
      streams.push(abort);
      const stream = await fetch(small.url, {
        headers: { ...headers, Accept: 'text/event-stream' },
        signal: abort.signal,
      });
      expect(stream.status).toBe(200);
      return stream;
    };
    try {
      const first = await openRawSession(KEY, small.url);
      const second = await openRawSession(KEY, small.url);
      await listOn(first);
      // `second` is now the least recently used: a third session ends it, not `first`.
      const third = await openRawSession(KEY, small.url);
      expect((await listOn(second)).status).toBe(404);
      expect((await listOn(first)).status).toBe(200);
      // A GET stream only listens: sessions that keep one open and do nothing else are still ended
      // for a new one, the least recently used first, its stream with it (what clients that leave
      // without DELETE do, the official conformance suite among them).
      const firstStream = await listen(first);
      await listen(third);
      const fourth = await openRawSession(KEY, small.url);
      expect(await firstStream.text()).toBe('');
      expect((await listOn(first)).status).toBe(404);
      expect((await listOn(third)).status).toBe(200);
      // Busy: both sessions of the key are answering a tool call. Nothing can be ended for a new one.
      const fault = await fetch(`${(await runtime.embedded!.start()).url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: '/svc/banking/*', latencyMs: 1_000, times: 2 }),
      });
      expect(fault.ok).toBe(true);
      const calls = [third, fourth].map((headers, i) =>
        // The answer's SSE stream opens (headers, a priming event) while the call still runs.
        fetch(small.url, {
          method: 'POST',
          headers: {
            ...headers,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 10 + i,
            method: 'tools/call',
            params: { name: 'list_accounts', arguments: {} },
          }),
        }),
      );
      const running = await Promise.all(calls);
      expect(running.map((r) => r.status)).toEqual([200, 200]);
      const refused = await post(INITIALIZE, { Authorization: `Bearer ${KEY}` }, small.url);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('60');
      // Another key has its own sessions.
      expect((await post(INITIALIZE, { Authorization: `Bearer ${VIEWER_KEY}` }, small.url)).status).toBe(200);
      for (const answer of running) expect(await answer.text()).toContain('acc_usd_0001');
    } finally {
      for (const abort of streams) abort.abort();
      await small.close();
    }
  });

  it('offers only read tools in read-only mode, and only the chosen toolsets', async () => {
    const readOnly = await startMcp({
      readOnly: true,
      toolsets: ['banking', 'issuing_b'],
    });
    try {
      const { client } = await connect(KEY, { url: readOnly.url });
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain('list_accounts');
      expect(names).not.toContain('create_payout');
      expect(names).not.toContain('create_beneficiary');
      expect(names).not.toContain('list_subscriptions');
      const expected = runtime.registry.list({
        toolsets: ['banking', 'issuing_b'],
        readOnly: true,
        noSecretInput: true,
      });
      for (const tool of expected) expect(names).toContain(tool.name);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
      await expect(client.callTool({ name: 'create_payout', arguments: PAYOUT })).rejects.toThrow(
        /create_payout not found/,
      );
    } finally {
      await readOnly.close();
    }
  });

  it('on close, lets a tool call in flight finish, and turns new requests away', async () => {
    const draining = await startMcp();
    const { client } = await connect(KEY, { url: draining.url });
    await slowNextBankingCall(600);
    const call = client.callTool({ name: 'list_accounts', arguments: {} }, undefined, { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const closed = draining.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const late = await post(INITIALIZE, { Authorization: `Bearer ${KEY}` }, draining.url).catch(() => ({
      status: 0,
    }));
    expect([0, 503]).toContain(late.status);
    const result = await call;
    expect(result.isError).not.toBe(true);
    expect(JSON.stringify(result.structuredContent)).toContain('acc_usd_0001');
    await closed;
  });

  it('refuses to listen on a non-loopback address unless allowed explicitly', async () => {
    await expect(startMcp({ host: '0.0.0.0' })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0/);
  });

  it('never writes a key to the log', () => {
    const log = logLines.join('');
    expect(log).toContain('request refused');
    for (const key of [KEY, VIEWER_KEY, WRONG_KEY]) expect(log).not.toContain(key);
  });
});

/**
 * A network that drops the first tool call's SSE stream right after its first event (the priming
 * event, which carries an event id): everything the server sends later on that call is only in
 * its event store, and reaches the client only if it resumes with Last-Event-ID.
 */
function flakyNetwork() {
  const lastEventIds: string[] = [];
  let cut = false;
  const flaky: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    const lastEventId = new Headers(init?.headers).get('last-event-id');
    if (init?.method === 'GET' && lastEventId !== null) lastEventIds.push(lastEventId);
    const isCall = typeof init?.body === 'string' && init.body.includes('"tools/call"');
    if (cut || !isCall || !response.headers.get('content-type')?.includes('text/event-stream')) {
      return response;
    }
    cut = true;
    return new Response(firstEventOnly(response.body!), {
      status: response.status,
      headers: response.headers,
    });
  };
  return { fetch: flaky, lastEventIds, cut: () => cut };
}

/** The body up to and including the first SSE event, then the end: a connection that dropped. */
function firstEventOnly(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      text += decoder.decode(value, { stream: true });
      const end = text.indexOf('\n\n');
      if (end >= 0) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, end + 2)));
        controller.close();
        await reader.cancel();
      }
    },
    cancel: () => reader.cancel(),
  });
}
