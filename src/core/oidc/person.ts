import { oidcActor } from '../actors.js';
import { isKnownActor, personOf } from '../policy/actors.js';
import { lookedFor } from '../policy/oidc.js';
import type { Policy } from '../policy/schema.js';
import type { Actor, OidcIdentity } from '../policy/types.js';

/** The name the policy gives an OAuth client id, else the id itself. */
function clientName(policy: Pick<Policy, 'oauthClients'>, clientId: string | undefined): string {
  if (clientId === undefined) return 'unnamed client';
  return policy.oauthClients.find((client) => client.id === clientId)?.name ?? clientId;
}

/**
 * The actor of a person the identity provider vouches for, under the policy in force: named by the
 * policy's `person` (else their e-mail or subject) and, over MCP, the client's name. A person the
 * policy does not know is refused, with the claims that were looked for.
 */
export function personActor(
  policy: Policy,
  identity: OidcIdentity,
  via: 'MCP' | 'CLI',
): { ok: true; actor: Actor } | { ok: false; reason: string } {
  const unnamed = oidcActor(identity, via, '');
  if (!isKnownActor(policy, unnamed)) return { ok: false, reason: lookedFor(unnamed) };
  const client = via === 'MCP' ? clientName(policy, identity.clientId) : '';
  return { ok: true, actor: oidcActor(identity, via, client, personOf(policy, unnamed)) };
}
