import { isObj, type Message, type Obj, objects } from '../conversations.js';
import { blocksHtml } from './blocks.js';
import { esc, type RenderContext } from './html.js';
import { mrkdwnHtml, textHtml } from './mrkdwn.js';

/**
 * A message as the workspace shows it: author, time, "edited", "only visible to you", then its
 * blocks (or its text when it has none) and its attachments (a coloured bar, their blocks). A
 * message of the channel and its thread's replies make one unit of the page.
 */

export interface Author {
  name: string;
  /** The app's bot (an APP badge, like Slack's). */
  app: boolean;
}

const clock = (ts: string): string =>
  new Date(Number(ts) * 1000).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

function attachmentHtml(attachment: Obj, k: number, ctx: RenderContext): string {
  const color =
    typeof attachment.color === 'string' && /^#?[0-9a-f]{3,8}$/i.test(attachment.color)
      ? attachment.color
      : '';
  const bar = color === '' ? '' : ` data-color="${esc(color)}"`;
  const blocks = objects(attachment.blocks);
  const text =
    typeof attachment.text === 'string' ? `<div class="text">${mrkdwnHtml(attachment.text, ctx)}</div>` : '';
  const pretext =
    typeof attachment.pretext === 'string'
      ? `<div class="text">${mrkdwnHtml(attachment.pretext, ctx)}</div>`
      : '';
  return `<div class="attachment"${bar}>${pretext}${text}${blocksHtml(blocks, `a${k}.b`, ctx)}</div>`;
}

export function messageHtml(message: Message, author: Author, ctx: RenderContext): string {
  const body = message.typed
    ? `<div class="typed-command">${esc(message.text)}</div>`
    : message.blocks.length > 0
      ? blocksHtml(message.blocks, 'b', ctx)
      : `<div class="text">${mrkdwnHtml(message.text, ctx)}</div>`;
  const attachments = message.attachments.map((a, k) => attachmentHtml(a, k, ctx)).join('');
  const badges = [
    author.app ? '<span class="badge">APP</span>' : '',
    `<span class="time">${esc(clock(message.ts))}</span>`,
    message.edited ? '<span class="edited">(edited)</span>' : '',
    message.ephemeralTo === undefined ? '' : '<span class="only">Only visible to you</span>',
  ].join('');
  const initial = esc(author.name.slice(0, 1).toUpperCase());
  return (
    `<div class="msg${message.ephemeralTo === undefined ? '' : ' ephemeral'}" data-ts="${esc(message.ts)}">` +
    `<div class="avatar${author.app ? ' app' : ''}">${initial}</div><div class="main">` +
    `<div class="meta"><b class="who">${esc(author.name)}</b>${badges}</div>` +
    `<div class="content">${body}${attachments}</div></div></div>`
  );
}

/** A message of the channel with the replies of its thread the reader sees. */
export function unitHtml(
  top: Message,
  replies: readonly Message[],
  authorOf: (user: string) => Author,
  ctx: RenderContext,
): string {
  const thread =
    replies.length === 0
      ? ''
      : `<details class="thread"><summary>${replies.length} repl${replies.length === 1 ? 'y' : 'ies'}</summary>${replies
          .map((reply) => messageHtml(reply, authorOf(reply.user), ctx))
          .join('')}</details>`;
  return `${messageHtml(top, authorOf(top.user), ctx)}${thread}`;
}

/** A view's title, submit and close texts. */
export const viewText = (view: Obj, key: string, fallback: string, ctx: RenderContext): string =>
  isObj(view[key]) ? textHtml(view[key], ctx) : esc(fallback);
