import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../../src/app/config.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { type RunningServe, startServe } from '../../src/app/serve.js';
import { createLogger } from '../../src/core/log.js';
import { defaultPolicyPath } from '../../src/core/policy/default-path.js';
import { OAuthResource } from '../../src/mcp/http/oauth.js';
import { freePort } from '../helpers/ports.js';
import { startTokenMint, type TokenMint } from '../helpers/token-mint.js';

const KEY = `bk_${randomBytes(24).toString('hex')}`;
let dir: string;
let runtime: Runtime;
let serve: RunningServe;
let mint: TokenMint;
let resource: string;
const logLines: string[] = [];
/** The resource server's clock: moved by the tests, never slept on. */
const now = Date.now();

function policyYaml(): string {
  const policy = parse(readFileSync(defaultPolicyPath(), 'utf8')) as Record<string, unknown> & {
    actors: unknown[];
  };
  policy.actors.push(
    { match: { oidc: { email: 'olivia@bank.example' } }, roles: ['viewer', 'operator'], person: 'olivia' },
    { match: { oidc: { group: 'auditors' } }, roles: ['viewer'] },
    { match: { mcpKey: 'ci-agent' }, roles: ['viewer'] },
  );
  policy.mcpKeys = [{ name: 'ci-agent', sha256: createHash('sha256').update(KEY).digest('hex') }];
  return stringify(policy);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bankops-oauth-'));
  const policyPath = join(dir, 'policy.yaml');
  writeFileSync(policyPath, policyYaml());
  mint = await startTokenMint();
  runtime = await createRuntime(
    loadConfig({ BANKOPS_DB: join(dir, 'bankops.db'), BANKOPS_POLICY: policyPath }),
    {
      log: createLogger('debug', (line) => logLines.push(line)),
    },
  );
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  resource = `${publicUrl}/mcp`;
  serve = await startServe({
    runtime,
    host: '127.0.0.1',
    port,
    settings: { slack: { enabled: false, why: 'not in this test' }, publicUrl },
    mcp: {
      oauth: new OAuthResource({
        settings: { issuers: ['https://other-idp.example', mint.issuer], maxTokenAgeS: 600 },
        publicUrl,
        now: () => new Date(now),
        jwksCooldownMs: 0,
      }),
    },
  });
});

afterAll(async () => {
  await serve?.close();
  await runtime?.close();
  await mint?.close();
  rmSync(dir, { recursive: true, force: true });
});

const seconds = () => Math.floor(now / 1000);

/** Olivia's token as her IdP would issue it, with `changes` applied. */
function claims(changes: JWTPayload = {}): JWTPayload {
  return {
    iss: mint.issuer,
    aud: resource,
    sub: 'u-olivia',
    email: 'Olivia@Bank.example',
    client_id: 'vscode',
    scope: 'bankops:read bankops:write',
    jti: randomBytes(8).toString('hex'),
    iat: seconds(),
    exp: seconds() + 300,
    ...changes,
  };
}

async function post(token: string | undefined, body: unknown) {
  const response = await fetch(resource, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    text: await response.text(),
  };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const PAYOUT_CALL = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'create_payout', arguments: {} },
};

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'VS Code', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), { authProvider: { token: async () => token } }),
  );
  return client;
}

describe('the resource server refuses what it must', () => {
  it('accepts a good token: the person and the client name the actor', async () => {
    const client = await connect(await mint.sign(claims()));
    const read = await client.callTool({ name: 'list_accounts', arguments: {} });
    expect(read.isError).not.toBe(true);
    const entries = await runtime.audit.list({ tool: 'list_accounts', order: 'desc', limit: 1 });
    expect(entries[0]?.actor).toMatch(
      /^olivia \(via MCP client vscode\) \[iss=http:\/\/127\.0\.0\.1:\d+ sub=u-olivia jti=\w+\]$/,
    );
    await client.close();
  });

  it('refuses no token, and points to the metadata', async () => {
    const answer = await post(undefined, INITIALIZE);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toMatch(
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
  });

  it.each([
    [
      'expired',
      () => mint.sign(claims({ iat: seconds() - 400, exp: seconds() - 60 })),
      'the token has expired',
    ],
    [
      'for another resource',
      () => mint.sign(claims({ aud: 'https://other.example/mcp' })),
      'another resource',
    ],
    ['from another issuer', () => mint.sign(claims({ iss: 'https://evil.example' })), 'another issuer'],
    [
      'signed with a key the issuer does not publish',
      () => mint.sign(claims(), { unpublished: true }),
      'signature',
    ],
    [
      'older than the maximum age',
      () => mint.sign(claims({ iat: seconds() - 700, exp: seconds() + 60 })),
      'BANKOPS_OAUTH_MAX_TOKEN_AGE',
    ],
    ['not a JWT', async () => 'opaque-token-value', 'not a JWT'],
  ])('refuses a token %s with 401 invalid_token', async (_case, token, reason) => {
    const value = await token();
    const answer = await post(value, INITIALIZE);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('error="invalid_token"');
    expect(answer.text).toContain(reason);
    expect(answer.text).not.toContain(value);
    expect(logLines.join('\n')).not.toContain(value);
  });

  it('accepts a token expired within the clock skew', async () => {
    const answer = await post(
      await mint.sign(claims({ iat: seconds() - 300, exp: seconds() - 10 })),
      INITIALIZE,
    );
    expect(answer.status).toBe(200);
  });

  it('fetches the JWKS again for a kid that rotated, and accepts the token', async () => {
    expect((await post(await mint.sign(claims()), INITIALIZE)).status).toBe(200);
    const fetched = mint.jwksFetches;
    await mint.rotate();
    expect((await post(await mint.sign(claims()), INITIALIZE)).status).toBe(200);
    expect(mint.jwksFetches).toBe(fetched + 1);
    // Cached: the next token with the same kid costs no fetch.
    expect((await post(await mint.sign(claims()), INITIALIZE)).status).toBe(200);
    expect(mint.jwksFetches).toBe(fetched + 1);
  });

  it('answers a write with a read-only token 403 insufficient_scope; its reads work (scp as a list)', async () => {
    const token = await mint.sign(claims({ scope: undefined, scp: ['bankops:read'] }));
    const write = await post(token, PAYOUT_CALL);
    expect(write.status).toBe(403);
    expect(write.challenge).toContain('error="insufficient_scope"');
    expect(write.challenge).toContain('scope="bankops:read bankops:write"');
    expect(write.text).toContain('create_payout changes things and needs the bankops:write scope');
    const client = await connect(token);
    expect((await client.callTool({ name: 'list_accounts', arguments: {} })).isError).not.toBe(true);
    await client.close();
    const none = await post(await mint.sign(claims({ scope: 'openid email' })), INITIALIZE);
    expect(none.status).toBe(403);
    expect(none.challenge).toContain('error="insufficient_scope"');
  });

  it('refuses a person the policy does not know, saying which claims it looked for', async () => {
    const answer = await post(
      await mint.sign(claims({ sub: 'u-mallory', email: 'mallory@bank.example', groups: ['interns'] })),
      INITIALIZE,
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text).error.message).toBe(
      'Forbidden: the policy has no oidc match for email mallory@bank.example, sub u-mallory, groups interns (actors[].match.oidc)',
    );
  });

  it('takes a person’s roles from an IdP group', async () => {
    const token = await mint.sign(claims({ sub: 'u-ann', email: 'ann@bank.example', groups: ['auditors'] }));
    const client = await connect(token);
    expect((await client.callTool({ name: 'list_accounts', arguments: {} })).isError).not.toBe(true);
    await client.close();
  });

  it('keeps the policy’s static keys working beside tokens', async () => {
    const client = await connect(KEY);
    expect((await client.callTool({ name: 'list_accounts', arguments: {} })).isError).not.toBe(true);
    await client.close();
  });
});
