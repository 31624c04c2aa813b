import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { type ClientConfig, createServiceClient, type ServiceClient } from '../../src/core/client/index.js';
import {
  type RunningSandbox,
  SANDBOX_DEFAULTS,
  type SandboxCredentials,
  startSandbox,
} from '../../src/sandbox/index.js';

export type { RunningSandbox };

/** A sandbox on a free loopback port with the default credentials. Close it in `afterAll`. */
export function startTestSandbox(): Promise<RunningSandbox> {
  return startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS } });
}

/** The environment that points bankops at a sandbox at `url` with its credentials (`BANKOPS_BASE_URL` …). */
export function serviceEnv(url: string, c: SandboxCredentials): Record<string, string> {
  return {
    BANKOPS_BASE_URL: url,
    BANKOPS_API_KEY: c.apiKey,
    BANKOPS_PRODUCT_ID: c.productId,
    BANKOPS_USER_ID: c.userId,
    BANKOPS_COMPANY_ID: c.companyId,
  };
}

/** A client configured with the sandbox's credentials (override anything, e.g. `now` or `timeoutMs`). */
export function clientFor(sandbox: RunningSandbox, overrides: Partial<ClientConfig> = {}): ServiceClient {
  const c = sandbox.credentials;
  return createServiceClient({
    baseUrl: sandbox.url,
    apiKey: c.apiKey,
    productId: c.productId,
    userId: c.userId,
    companyId: c.companyId,
    maxRetries: 0,
    ...overrides,
  });
}

export interface RawResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers field by field
  body: any;
  headers: Headers;
}

/** Keep-alive connections for `raw`, as `fetch` keeps them. */
const agent = new Agent({ keepAlive: true });

/**
 * A plain HTTP request to the sandbox, exactly as written (no client involved). Through `node:http`
 * rather than `fetch`: the conformance files send thousands, and `fetch` costs several times the
 * CPU a request. What `fetch` adds that matters is kept: a text body without a type is
 * `text/plain;charset=UTF-8`, and the answer's headers come back as `Headers`.
 */
export function raw(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  init: { headers?: Record<string, string | undefined>; body?: unknown; rawBody?: string } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(init.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
  const hasBody = init.body !== undefined || init.rawBody !== undefined;
  const payload = hasBody ? Buffer.from(init.rawBody ?? JSON.stringify(init.body)) : undefined;
  if (payload !== undefined) {
    headers['content-type'] ??= 'text/plain;charset=UTF-8';
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = request(`${sandbox.url}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // leave as text: some tests inject malformed bodies on purpose
        }
        const answered = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : [value])
            if (one !== undefined) answered.append(name, one);
        }
        resolve({ status: res.statusCode ?? 0, body, headers: answered });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A fresh bearer token from the sandbox's token endpoint. */
export async function tokenFor(sandbox: RunningSandbox): Promise<string> {
  const c = sandbox.credentials;
  const res = await raw(sandbox, 'POST', '/svc/api/v1/auth/token', {
    headers: {
      'content-type': 'application/json',
      'x-api-key': c.apiKey,
      'x-company-id': c.companyId,
      'x-user-id': c.userId,
      'x-request-id': randomUUID(),
    },
  });
  if (res.status !== 200) throw new Error(`token request failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
}

/**
 * The spec's header sets filled with the sandbox's credentials and a new `x-request-id`.
 * Spread extra identity headers on top: `{...h.HB2(), 'x-cardholder-id': id}`.
 */
export function headerSets(sandbox: RunningSandbox) {
  const c = sandbox.credentials;
  const base = () => ({
    'content-type': 'application/json',
    'x-api-key': c.apiKey,
    'x-request-id': randomUUID(),
  });
  return {
    HB: (token: string) => ({
      ...base(),
      'x-product-id': c.productId,
      'x-user-id': c.userId,
      authorization: `Bearer ${token}`,
    }),
    USERS: () => ({ ...base(), 'x-product-id': c.productId }),
    HB2: () => ({ ...base(), 'x-product-id': c.productId }),
    NOTIFY: () => ({ 'content-type': 'application/json', 'x-api-key': c.apiKey }),
  };
}

/** Moves the sandbox clock forward. */
export async function advanceClock(sandbox: RunningSandbox, seconds: number): Promise<void> {
  const res = await raw(sandbox, 'POST', '/_sandbox/clock', {
    headers: { 'content-type': 'application/json' },
    body: { advanceSeconds: seconds },
  });
  if (res.status !== 200) throw new Error(`clock advance failed: ${JSON.stringify(res.body)}`);
}
