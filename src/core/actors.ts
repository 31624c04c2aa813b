import { optional } from './optional.js';
import type { Actor } from './policy/types.js';

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
