import { optional } from './optional.js';
import type { Actor, OidcIdentity } from './policy/types.js';

/**
 * The local operator at the CLI (`--as <name>` or BANKOPS_ACTOR names who is acting). Against a real
 * service the OS account running the command comes along (`osUser`): it is a requester too.
 */
export const cliActor = (name: string, osUser?: string): Actor => ({
  id: `cli:${name}`,
  frontEnd: 'cli',
  cliUser: name,
  ...optional('osUser', osUser),
});

/** An assistant connected over MCP with the key the policy names `keyName`. */
export const mcpActor = (keyName: string): Actor => ({
  id: `mcp:${keyName}`,
  frontEnd: 'mcp',
  mcpKeyName: keyName,
});

/** The assistant on this machine, connected over stdio (`bankops mcp`); it presents no key. */
export const mcpStdioActor = (): Actor => ({ id: 'mcp:stdio', frontEnd: 'mcp', mcpStdio: true });

/**
 * bankops's own scheduled work calling a tool (`system:alerts`, the balance alerts' check): no
 * front end makes one, so no person can act as it; the policy gives it roles like anyone else.
 */
export const systemActor = (name: string): Actor => ({
  id: `system:${name}`,
  frontEnd: 'system',
  system: name,
});

/** A Slack user, with the user groups they belong to. */
export const slackActor = (userId: string, groupIds: readonly string[] = []): Actor => ({
  id: `slack:${userId}`,
  frontEnd: 'slack',
  slackUserId: userId,
  slackGroupIds: [...groupIds],
});

/**
 * A person the identity provider vouches for, through `via` (`MCP` with the client's name, or
 * `CLI`): "olivia (via MCP client Claude)". `person` is the policy's name for them (else their
 * e-mail or subject); the id is a label, the claims in `oidc` are what the policy matches.
 */
export const oidcActor = (
  identity: OidcIdentity,
  via: 'MCP' | 'CLI',
  client: string,
  person?: string,
): Actor => {
  const who = person ?? identity.email ?? identity.sub;
  return {
    id: via === 'MCP' ? `${who} (via MCP client ${client})` : `${who} (via CLI)`,
    frontEnd: via === 'MCP' ? 'mcp' : 'cli',
    oidc: identity,
  };
};

/**
 * How the audit log names an actor: its id, and for an IdP person the token's `iss`, `sub` and
 * `jti` (never the token), so an entry can be traced to the sign-in behind it.
 */
export function auditActor(actor: Actor): string {
  const identity = actor.oidc;
  if (identity === undefined) return actor.id;
  const jti = identity.jti === undefined ? '' : ` jti=${identity.jti}`;
  return `${actor.id} [iss=${identity.iss} sub=${identity.sub}${jti}]`.slice(0, 256);
}
