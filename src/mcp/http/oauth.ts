import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../core/http-server.js';
import {
  type OidcSettings,
  personActor,
  SCOPES,
  TokenVerifier,
  type VerifierOptions,
} from '../../core/oidc/index.js';
import { optional } from '../../core/optional.js';
import type { Policy } from '../../core/policy/schema.js';
import type { Actor } from '../../core/policy/types.js';
import type { Registry } from '../../core/registry.js';
import { MCP_PATH } from '../http.js';

/** RFC 9728's well-known path; the resource's own path follows it (`…/oauth-protected-resource/mcp`). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** What `bankops serve` needs to be an OAuth 2.1 resource server for `/mcp`. */
export interface OAuthResourceOptions {
  settings: OidcSettings;
  /** `BANKOPS_PUBLIC_URL`, without a trailing slash: the resource is this plus `/mcp`. */
  publicUrl: string;
  now?: VerifierOptions['now'];
  jwksCooldownMs?: number;
}

/** A request's person, or the HTTP answer that refuses it. */
export type Admission =
  | { ok: true; actor: Actor; scopes: string[]; expiresAt: number }
  | { ok: false; status: 401 | 403; message: string; challenge: string };

/** What a JSON-RPC body asks, for the scope check: the tools it calls. */
function calledTools(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    if (typeof message !== 'object' || message === null) return [];
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    return method === 'tools/call' && typeof params?.name === 'string' ? [params.name] : [];
  });
}

/**
 * MCP over HTTP as an OAuth 2.1 resource server (MCP authorization, RFC 9728, RFC 8707): the
 * protected-resource metadata, the `WWW-Authenticate` challenges that point to it, and the person a
 * verified access token names.
 */
export class OAuthResource {
  readonly resource: string;
  readonly metadataUrl: string;
  readonly #settings: OidcSettings;
  readonly #verifier: TokenVerifier;

  constructor(options: OAuthResourceOptions) {
    this.#settings = options.settings;
    this.resource = `${options.publicUrl}${MCP_PATH}`;
    const origin = new URL(options.publicUrl);
    const path = origin.pathname === '/' ? '' : origin.pathname.replace(/\/$/, '');
    this.metadataUrl = `${origin.origin}${PROTECTED_RESOURCE_PATH}${path}${MCP_PATH}`;
    this.#verifier = new TokenVerifier({
      settings: options.settings,
      resource: this.resource,
      ...optional('now', options.now),
      ...optional('jwksCooldownMs', options.jwksCooldownMs),
    });
  }

  /** RFC 9728: who issues tokens for this resource, and what they may hold. */
  metadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: this.#settings.issuers,
      scopes_supported: [SCOPES.read, SCOPES.write],
      bearer_methods_supported: ['header'],
      resource_name: 'bankops',
    };
  }

  /** Serves the metadata at the path-aware and the bare well-known path alike. */
  readonly serveMetadata = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    req.resume();
    // Public and the same for everyone: a browser-based client may read it from any origin.
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Max-Age': '600' });
      res.end();
      return;
    }
    sendJson(res, 200, this.metadata());
  };

  /** RFC 6750 with RFC 9728's `resource_metadata`; a description is one of our fixed sentences. */
  challenge(error?: 'invalid_token' | 'insufficient_scope', description?: string, scope?: string): string {
    const parts = [`Bearer resource_metadata="${this.metadataUrl}"`];
    if (error !== undefined) parts.push(`error="${error}"`);
    if (description !== undefined)
      parts.push(`error_description="${description.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?')}"`);
    parts.push(`scope="${scope ?? `${SCOPES.read} ${SCOPES.write}`}"`);
    return parts.join(', ');
  }

  /** The person behind an access token, under the policy in force now. */
  async admit(token: string, policy: Policy): Promise<Admission> {
    const checked = await this.#verifier.verify(token);
    if (!checked.ok) {
      return {
        ok: false,
        status: 401,
        message: `Unauthorized: ${checked.reason}`,
        challenge: this.challenge('invalid_token', checked.reason),
      };
    }
    if (!checked.scopes.includes(SCOPES.read) && !checked.scopes.includes(SCOPES.write)) {
      const reason = `the token grants neither ${SCOPES.read} nor ${SCOPES.write}`;
      return {
        ok: false,
        status: 403,
        message: `Forbidden: ${reason}`,
        challenge: this.challenge('insufficient_scope', reason, SCOPES.read),
      };
    }
    const person = personActor(policy, checked.identity, 'MCP');
    if (!person.ok) {
      return { ok: false, status: 403, message: `Forbidden: ${person.reason}`, challenge: this.challenge() };
    }
    return { ok: true, actor: person.actor, scopes: checked.scopes, expiresAt: checked.expiresAt };
  }

  /**
   * A write with a token that grants only reading: `403 insufficient_scope`, naming the scope to
   * ask for (the MCP client may then ask the person for more). Unknown tools pass: the server says.
   */
  scopeRefusal(body: unknown, scopes: readonly string[], registry: Registry): Admission | undefined {
    if (scopes.includes(SCOPES.write)) return undefined;
    const writes = calledTools(body).filter((name) => registry.get(name)?.hints.readOnly === false);
    if (writes.length === 0) return undefined;
    const reason = `${writes.join(', ')} changes things and needs the ${SCOPES.write} scope`;
    return {
      ok: false,
      status: 403,
      message: `Forbidden: ${reason}`,
      challenge: this.challenge('insufficient_scope', reason, `${SCOPES.read} ${SCOPES.write}`),
    };
  }
}
