import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** A person of the test identity provider. */
export interface IdpPerson {
  email: string;
  groups: string[];
  /** A disabled account cannot sign in, and its refresh tokens stop working. */
  disabled?: boolean;
}

export interface TestIdp {
  /** The issuer URL: `http://127.0.0.1:<port>`. */
  issuer: string;
  people: Record<string, IdpPerson>;
  /** The paths asked of the provider, in order (the introspection endpoint's calls are counted). */
  asked: string[];
  close(): Promise<void>;
}

export interface TestIdpOptions {
  /** The resource access tokens are for (`BANKOPS_PUBLIC_URL/mcp`). */
  resource: string;
  people: Record<string, IdpPerson>;
  /** Pre-registered clients (as Entra ID wants): public, with PKCE. */
  clients?: { client_id: string; redirect_uris?: string[]; device?: boolean }[];
  accessTokenTtlS?: number;
  /** Opaque access tokens (the provider's default) instead of JWTs: checked by introspection. */
  opaque?: boolean;
  /** Confidential clients that may introspect tokens (client_secret_basic). */
  introspectors?: { client_id: string; client_secret: string }[];
  /**
   * The device flow's polling interval in seconds, as the provider tells the client (RFC 8628
   * `interval`; 5 when a provider says nothing). A test's person confirms at once, so the client
   * need not wait 5 s between polls: 0.05 unless said.
   */
  devicePollS?: number;
}

/**
 * A real OpenID provider on loopback (`oidc-provider`): its own signing key, accounts, clients;
 * dynamic registration, the device flow, and RFC 8707 resource indicators, access tokens as JWTs
 * for the one resource, with the person's e-mail and groups in them. Login and consent are its
 * development interactions, which a test answers over HTTP (`signIn` below).
 */
export async function startTestIdp(options: TestIdpOptions): Promise<TestIdp> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const people = options.people;
  const live = (id: string): IdpPerson | undefined => {
    const person = people[id];
    return person === undefined || person.disabled === true ? undefined : person;
  };
  const clients = (options.clients ?? []).map((client) => ({
    client_id: client.client_id,
    token_endpoint_auth_method: 'none',
    redirect_uris: client.redirect_uris ?? [],
    grant_types: client.device
      ? ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token']
      : ['authorization_code', 'refresh_token'],
    response_types: client.device ? [] : ['code'],
  }));
  const introspectors = (options.introspectors ?? []).map((client) => ({
    ...client,
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: [],
    response_types: [],
    redirect_uris: [],
  }));
  const provider = new Provider(issuer, {
    clients: [...clients, ...introspectors],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access', 'email'],
    claims: { openid: ['sub'], email: ['email'] },
    ttl: { AccessToken: options.accessTokenTtlS ?? 300 },
    features: {
      devInteractions: { enabled: true },
      deviceFlow: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== options.resource) throw new Error(`unknown resource ${indicator}`);
          return {
            scope: 'bankops:read bankops:write',
            audience: indicator,
            accessTokenTTL: options.accessTokenTtlS ?? 300,
            accessTokenFormat: options.opaque === true ? 'opaque' : 'jwt',
          };
        },
      },
    },
    // A refresh, like every token, needs an account that is still there and enabled.
    issueRefreshToken: () => true,
    rotateRefreshToken: () => true,
    async findAccount(_ctx: unknown, id: string) {
      const person = live(id);
      if (person === undefined) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: person.email }) };
    },
    async extraTokenClaims(_ctx: unknown, token: { accountId?: string }) {
      const person = token.accountId === undefined ? undefined : live(token.accountId);
      return person === undefined ? {} : { email: person.email, groups: person.groups };
    },
  });
  // The device authorization's answer names its polling interval, as providers may (RFC 8628 3.2).
  const devicePollS = options.devicePollS ?? 0.05;
  provider.use(async (ctx, next) => {
    await next();
    if (
      ctx.path === '/device/auth' &&
      ctx.status === 200 &&
      typeof ctx.body === 'object' &&
      ctx.body !== null
    )
      ctx.body = { ...(ctx.body as Record<string, unknown>), interval: devicePollS };
  });
  const asked: string[] = [];
  server.on('request', (request) => asked.push(new URL(request.url ?? '/', issuer).pathname));
  server.on('request', provider.callback());
  return {
    issuer,
    people,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Cookies as a browser keeps them for one site (paths ignored: the provider is the only site). */
class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      this.#cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  get header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The first form of a page: where it posts, and its hidden fields. */
function formOf(html: string, base: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  if (action === undefined) throw new Error(`no form on the page: ${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    fields[match[1] ?? ''] = match[2] ?? '';
  }
  return { action: new URL(action.replaceAll('&amp;', '&'), base).toString(), fields };
}

/**
 * A person at the browser: follows `url` through the provider's login and consent pages (signing
 * in as `account`, consenting to what is asked) until it leaves the provider; returns where to.
 * `extra` fields go with the first form (the device flow's user code).
 */
export async function signIn(
  idp: TestIdp,
  url: string,
  account: string,
  extra: Record<string, string> = {},
): Promise<URL> {
  const jar = new CookieJar();
  let next: { url: string; init?: RequestInit } = { url };
  let extraSent = false;
  for (let step = 0; step < 20; step += 1) {
    const response = await fetch(next.url, {
      ...next.init,
      redirect: 'manual',
      headers: { ...(next.init?.headers as Record<string, string>), cookie: jar.header },
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location !== null) {
      const target = new URL(location, next.url);
      if (target.origin !== idp.issuer) return target;
      next = { url: target.toString() };
      continue;
    }
    const html = await response.text();
    if (response.status >= 400)
      throw new Error(`the provider answered ${response.status}: ${html.slice(0, 800)}`);
    if (/success|signed in|Sign-in Success/i.test(html) && !/<form/.test(html)) return new URL(next.url);
    const form = formOf(html, next.url);
    const fields: Record<string, string> = { ...form.fields };
    if (fields.prompt === 'login') Object.assign(fields, { login: account, password: 'any' });
    if (!extraSent) {
      Object.assign(fields, extra);
      extraSent = true;
    }
    if (/name="confirm"/.test(html)) fields.confirm = 'yes';
    next = {
      url: form.action,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      },
    };
  }
  throw new Error('the sign-in did not finish in 20 steps');
}
