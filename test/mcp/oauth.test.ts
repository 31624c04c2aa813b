import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { OAuthResource } from '../../src/mcp/http/oauth.js';
import { type IdpPerson, signIn, startTestIdp, type TestIdp } from '../helpers/idp.js';
import { freePort } from '../helpers/ports.js';
import { type SlackTest, startSlackTest } from '../helpers/slack-app.js';
import { APPROVALS_CHANNEL, clickButton, waitShown } from '../helpers/slack-approvals.js';

const BEN = 'U0BEN';
/** Olivia's own Slack user: no line in the policy names it; her e-mail makes her olivia. */
const OLIVIA_IN_SLACK = 'U0OLIVIA';
const PEOPLE: Record<string, IdpPerson> = {
  olivia: { email: 'olivia@bank.example', groups: ['payments-ops'] },
  ben: { email: 'ben@bank.example', groups: ['treasury'] },
  stranger: { email: 'stranger@bank.example', groups: [] },
};
const REDIRECT = 'http://127.0.0.1:33418/callback';

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

function policyYaml(): string {
  const policy = parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8'),
  ) as Record<string, unknown> & { actors: unknown[] };
  policy.actors.push(
    // Olivia may approve too: only being the requester stops her below.
    {
      match: { oidc: { email: PEOPLE.olivia?.email } },
      roles: ['viewer', 'operator', 'approver'],
      person: 'olivia',
    },
    { match: { oidc: { group: 'treasury' } }, roles: ['viewer', 'approver'] },
    // Ben in Slack is ben@bank.example by users.info: no slackUser line needed.
    { match: { oidc: { email: PEOPLE.ben?.email } }, roles: ['viewer', 'approver'] },
  );
  policy.people = { matchBy: 'email' };
  policy.oauthClients = [{ id: 'claude', name: 'Claude' }];
  return stringify(policy);
}

/** What an assistant keeps of its OAuth sign-in; the person's browser is `signIn`. */
class AssistantAuth implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #tokens: Parameters<OAuthClientProvider['saveTokens']>[0] | undefined;
  #verifier = '';
  readonly #clientId: string;
  constructor(clientId: string) {
    this.#clientId = clientId;
  }
  get redirectUrl(): string {
    return REDIRECT;
  }
  /** The refresh token the provider gave, for the test to try after the account is disabled. */
  get refreshToken(): string | undefined {
    return this.#tokens?.refresh_token;
  }
  get clientMetadata() {
    return { client_name: 'Claude', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return { client_id: this.#clientId };
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: Parameters<OAuthClientProvider['saveTokens']>[0]): void {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    return this.#verifier;
  }
}

let idp: TestIdp;
let t: SlackTest;
let resource: string;
/** How far the resource server's clock is ahead of real time (moved, never slept on). */
let ahead = 0;

beforeAll(async () => {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  resource = `${publicUrl}/mcp`;
  idp = await startTestIdp({
    resource,
    people: PEOPLE,
    clients: [{ client_id: 'claude', redirect_uris: [REDIRECT] }],
  });
  t = await startSlackTest({
    port,
    publicUrl,
    policyYaml: policyYaml(),
    config: { approvalsChannel: APPROVALS_CHANNEL },
    mcp: {
      oauth: new OAuthResource({
        settings: { issuers: [idp.issuer], maxTokenAgeS: 600 },
        publicUrl,
        now: () => new Date(Date.now() + ahead),
      }),
    },
  });
  t.api.setEmails({ [BEN]: 'ben@bank.example', [OLIVIA_IN_SLACK]: 'Olivia@Bank.example' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** The whole flow as an assistant meets it: 401, discovery, sign-in and consent in the browser, token, connect. */
async function connectAs(account: string): Promise<{ client: Client; auth: AssistantAuth }> {
  const auth = new AssistantAuth('claude');
  const first = new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth });
  await expect(new Client({ name: 'Claude', version: '1' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  expect(auth.authorizationUrl?.searchParams.get('resource')).toBe(resource);
  expect(auth.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  const back = await signIn(idp, String(auth.authorizationUrl), account);
  expect(back.searchParams.get('code')).toBeTruthy();
  // The redirect as the client's callback receives it: the code, the state and the issuer (RFC 9207).
  await first.finishAuth(back.searchParams);
  const client = new Client({ name: 'Claude', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth }));
  return { client, auth };
}

describe('MCP over HTTP with the identity provider’s access tokens', () => {
  it('publishes the protected-resource metadata at the path-aware and the bare well-known path', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await fetch(`${t.serve.url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        resource,
        authorization_servers: [idp.issuer],
        scopes_supported: ['bankops:read', 'bankops:write'],
      });
    }
    const refused = await fetch(resource, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${t.serve.url}/.well-known/oauth-protected-resource/mcp", scope="bankops:read bankops:write"`,
    );
  });

  it('signs olivia in through the SDK client; her payout is approved in Slack by ben; the audit names them', async () => {
    const { client } = await connectAs('olivia');
    const requested = await client.callTool({ name: 'create_payout', arguments: PAYOUT });
    expect(requested.isError).not.toBe(true);
    const pending = requested.structuredContent as { status: string; approvalId: string };
    expect(pending.status).toBe('pending_approval');
    const stored = await t.runtime.executor.getApproval(pending.approvalId);
    expect(stored).toMatchObject({ requester: 'olivia (via MCP client Claude)', requesterPerson: 'olivia' });
    await waitShown(t.api, pending.approvalId, 'olivia (via MCP client Claude)');

    // Olivia in Slack is the requester by her e-mail, whichever front end she asked from.
    expect(await clickButton(t, OLIVIA_IN_SLACK, pending.approvalId, 'Approve')).toMatch(
      /requested this|own request|cannot approve/i,
    );
    expect(await clickButton(t, BEN, pending.approvalId, 'Approve')).not.toMatch(/cannot|refused/i);
    await waitShown(t.api, pending.approvalId, 'Sent: payout');
    const followed = await client.callTool({
      name: 'get_approval',
      arguments: { approvalId: pending.approvalId },
    });
    expect(followed.structuredContent).toMatchObject({ id: pending.approvalId, state: 'succeeded' });

    const entries = await t.runtime.audit.list({ approvalId: pending.approvalId, limit: 50 });
    const requestedEntry = entries.find((entry) => entry.event === 'requested');
    expect(requestedEntry?.actor).toMatch(
      new RegExp(`^olivia \\(via MCP client Claude\\) \\[iss=${idp.issuer} sub=olivia jti=\\S+\\]$`),
    );
    expect(entries.some((entry) => entry.event === 'decided' && entry.actor === 'slack:U0BEN')).toBe(true);
    expect(JSON.stringify(entries)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    await client.close();
  });

  it('locks out a person disabled at the IdP at the next token check: tokens die young, refresh fails', async () => {
    // Signed in, but the policy does not know this person: refused with what it looked for.
    await expect(connectAs('stranger')).rejects.toThrow(
      'Forbidden: the policy has no oidc match for email stranger@bank.example, sub stranger, no groups',
    );

    const olivia = await connectAs('olivia');
    expect((await olivia.client.callTool({ name: 'list_accounts', arguments: {} })).isError).not.toBe(true);
    const refresh = olivia.auth.refreshToken;
    expect(refresh).toBeTruthy();
    (PEOPLE.olivia as IdpPerson).disabled = true;
    ahead = 11 * 60_000;
    try {
      await expect(olivia.client.callTool({ name: 'list_accounts', arguments: {} })).rejects.toThrow();
      const refreshed = await fetch(`${idp.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refresh ?? '',
          client_id: 'claude',
        }),
      });
      expect(refreshed.status).toBe(400);
      expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
    } finally {
      ahead = 0;
      (PEOPLE.olivia as IdpPerson).disabled = false;
    }
    await olivia.client.close().catch(() => undefined);
  });
});
