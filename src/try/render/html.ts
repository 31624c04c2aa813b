/** Text made safe inside HTML elements and double-quoted attributes. */
export const esc = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Slack's three entities, as the app escaped its text (`&amp;`, `&lt;`, `&gt;`). */
export const decodeSlack = (text: string): string =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** Names the workspace knows: people, channels and user groups, by id. */
export interface Directory {
  user(id: string): string | undefined;
  channel(id: string): string | undefined;
  group(id: string): string | undefined;
}

/** What a rendering needs besides the blocks. */
export interface RenderContext {
  directory: Directory;
  /** When "today" is, for `<!date^…>` (ms). */
  now: number;
  /** What could not be shown, by kind (`block rich_text`): shown as a box, and listed here. */
  unsupported: string[];
  /** Makes the ids of this rendering's confirm dialogs unique on the page. */
  idPrefix: string;
}

/** The box that stands for anything the workspace cannot show: never dropped silently. */
export function unsupportedBox(ctx: RenderContext, kind: string, value: unknown): string {
  ctx.unsupported.push(kind);
  const json = JSON.stringify(value) ?? '';
  return `<div class="unsupported" data-unsupported="${esc(kind)}"><strong>unsupported ${esc(kind)}</strong><code>${esc(json.length > 300 ? `${json.slice(0, 300)}…` : json)}</code></div>`;
}
