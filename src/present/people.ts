/**
 * People in words, the same in every front end: `alice (CLI)`, `the local assistant (MCP)`,
 * `claude-ops (assistant over MCP)`, `bankops`. Slack writes a Slack user as a mention instead
 * (src/slack); elsewhere a Slack user is `Slack user U…`, the only name bankops knows for them.
 */

/** The parts of an actor id: `cli:bob` → `bob`, `CLI`; `mcp:stdio` → `the local assistant`, `MCP`. */
export function actorParts(actorId: string): { name: string; via?: string } {
  const at = actorId.indexOf(':');
  const kind = at === -1 ? '' : actorId.slice(0, at);
  const name = at === -1 ? actorId : actorId.slice(at + 1);
  switch (kind) {
    case 'cli':
      return { name, via: 'CLI' };
    case 'mcp':
      return name === 'stdio'
        ? { name: 'the local assistant', via: 'MCP' }
        : { name, via: 'assistant over MCP' };
    case 'slack':
      return { name: `Slack user ${name}` };
    case 'system':
      return { name: 'bankops' };
    default:
      return { name: actorId };
  }
}

/** `alice (CLI)`, `the local assistant (MCP)`, `Slack user U0123`, `bankops`. */
export function actorName(actorId: string): string {
  const { name, via } = actorParts(actorId);
  return via === undefined ? name : `${name} (${via})`;
}

/** Actor ids as they appear in the core's reasons (`cli:alice requested this call`). */
const ACTOR_ID = /\b(?:cli|mcp|slack|system):[A-Za-z0-9._@-]*[A-Za-z0-9_@-]/g;

/** A reason or message with each actor id in it replaced by that person's words. */
export const nameActors = (text: string, who: (actorId: string) => string = actorName): string =>
  text.replace(ACTOR_ID, (id) => who(id));
