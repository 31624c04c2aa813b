import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../../src/app/config.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { type RunningServe, startServe } from '../../src/app/serve.js';
import { deviceSignIn } from '../../src/cli/signin/device.js';
import { createLogger } from '../../src/core/log.js';
import { INTROSPECTION_CACHE_MS } from '../../src/core/oidc/introspect.js';
import { loadOidcSettings } from '../../src/core/oidc/settings.js';
import { defaultPolicyPath } from '../../src/core/policy/default-path.js';
import { OAuthResource } from '../../src/mcp/http/oauth.js';
import { type IdpPerson, signIn, startTestIdp, type TestIdp } from '../helpers/idp.js';
import { freePort } from '../helpers/ports.js';

/** Opaque access tokens, checked by the identity provider's introspection endpoint (RFC 7662). */

const SECRET = 'introspection-secret-0123456789abcdef';
const PEOPLE: Record<string, IdpPerson> = {
  olivia: { email: 'olivia@bank.example', groups: ['payments-ops'] },
};
let dir: string;
let idp: TestIdp;
let runtime: Runtime;
let serve: RunningServe;
let resource: string;
const logLines: string[] = [];
/** How far the resource server's clock is ahead of real time (moved, never slept on). */
let ahead = 0;

function policyYaml(): string {
  const policy = parse(readFileSync(defaultPolicyPath(), 'utf8')) as Record<string, unknown> & {
    actors: unknown[];
  };
  policy.actors.push({
    match: { oidc: { email: 'olivia@bank.example' } },
    roles: ['viewer', 'operator'],
    person: 'olivia',
  });
  policy.oauthClients = [{ id: 'assistant', name: 'Assistant' }];
  return stringify(policy);
}

async function startWith(secret: string): Promise<void> {
  await serve?.close();
  await runtime?.close();
  const policyPath = join(dir, 'policy.yaml');
  writeFileSync(policyPath, policyYaml());
  runtime = await createRuntime(
    loadConfig({ BANKOPS_DB: join(dir, 'bankops.db'), BANKOPS_POLICY: policyPath }),
    { log: createLogger('debug', (line) => logLines.push(line)) },
  );
  const port = Number(new URL(resource).port);
  const publicUrl = `http://127.0.0.1:${port}`;
  const settings = loadOidcSettings({
    BANKOPS_OAUTH_ISSUER: idp.issuer,
    BANKOPS_OAUTH_INTROSPECTION_URL: `${idp.issuer}/token/introspection`,
    BANKOPS_OAUTH_INTROSPECTION_CLIENT_ID: 'bankops-rs',
    BANKOPS_OAUTH_INTROSPECTION_CLIENT_SECRET: secret,
  });
  if (settings === undefined) throw new Error('no OAuth settings');
  serve = await startServe({
    runtime,
    host: '127.0.0.1',
    port,
    settings: { slack: { enabled: false, why: 'not in this test' }, publicUrl },
    mcp: { oauth: new OAuthResource({ settings, publicUrl, now: () => new Date(Date.now() + ahead) }) },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bankops-introspection-'));
  resource = `http://127.0.0.1:${await freePort()}/mcp`;
  idp = await startTestIdp({
    resource,
    people: PEOPLE,
    opaque: true,
    clients: [{ client_id: 'assistant', device: true }],
    introspectors: [{ client_id: 'bankops-rs', client_secret: SECRET }],
  });
  await startWith(SECRET);
}, 60_000);

afterAll(async () => {
  await serve?.close();
  await runtime?.close();
  await idp?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An opaque access token for `account`, by the device flow, the person confirming in the browser. */
async function tokenFor(account: string): Promise<string> {
  let shown: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve) => {
    shown = resolve;
  });
  const signedIn = deviceSignIn({ issuer: idp.issuer, clientId: 'assistant', resource, tell: shown });
  await signIn(idp, await url, account);
  return (await signedIn).accessToken;
}

/** A real MCP client over HTTP with the token as its bearer. */
async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'assistant', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const introspections = () => idp.asked.filter((path) => path === '/token/introspection').length;

describe('opaque access tokens by introspection', () => {
  it('takes an active token for this resource, names its person, and asks the provider once while cached', async () => {
    const token = await tokenFor('olivia');
    expect(token.split('.')).toHaveLength(1);
    const before = introspections();
    const client = await connect(token);
    const listed = await client.callTool({ name: 'list_accounts', arguments: {} });
    expect(listed.isError, JSON.stringify(listed.content)).not.toBe(true);
    await client.callTool({ name: 'list_accounts', arguments: {} });
    // Every request of the session was one check; the provider was asked once.
    expect(introspections() - before).toBe(1);
    const audit = await runtime.audit.list({ tool: 'list_accounts', order: 'desc', limit: 5 });
    expect(audit[0]?.actor).toMatch(
      /^olivia \(via MCP client Assistant\) \[iss=http:\/\/127\.0\.0\.1:\d+ sub=olivia/,
    );
    // The opaque token is its own id at the provider: it is never kept as a jti.
    expect(JSON.stringify(audit)).not.toContain(token);
    await client.close();
  }, 60_000);

  it('asks again once the cache has lapsed, and refuses a token the provider revoked', async () => {
    const token = await tokenFor('olivia');
    const client = await connect(token);
    await client.close();
    const revoked = await fetch(`${idp.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: 'assistant' }).toString(),
    });
    expect(revoked.status).toBe(200);
    ahead += INTROSPECTION_CACHE_MS + 1000;
    const refused = await fetch(resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('invalid_token');
    expect(await refused.text()).toContain('the identity provider says the token is not active');
  }, 60_000);

  it('refuses every opaque token when its own client secret is wrong, and never logs a secret', async () => {
    await startWith('not-the-secret-0000');
    const token = await tokenFor('olivia');
    const refused = await fetch(resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain("the identity provider's introspection answered 401");
    const logs = logLines.join('\n');
    expect(logs).not.toContain(SECRET);
    expect(logs).not.toContain('not-the-secret-0000');
    expect(logs).not.toContain(token);
  }, 60_000);

  it('takes the endpoint, its client and secret together or not at all, never naming the secret', () => {
    const partial = () =>
      loadOidcSettings({
        BANKOPS_OAUTH_ISSUER: idp.issuer,
        BANKOPS_OAUTH_INTROSPECTION_URL: `${idp.issuer}/token/introspection`,
        BANKOPS_OAUTH_INTROSPECTION_CLIENT_SECRET: SECRET,
      });
    expect(partial).toThrow(/go together: set all three or none/);
    try {
      partial();
    } catch (error) {
      expect(JSON.stringify(error) + String(error)).not.toContain(SECRET);
    }
    expect(loadOidcSettings({ BANKOPS_OAUTH_ISSUER: idp.issuer })?.introspection).toBeUndefined();
  });
});
