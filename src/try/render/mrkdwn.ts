import { slackDate } from './dates.js';
import { emojify } from './emoji.js';
import { decodeSlack, esc, type RenderContext } from './html.js';

/**
 * Slack's mrkdwn as HTML: `*bold*`, `_italic_`, `~strike~`, `` `code` ``, ``` ```blocks``` ```,
 * `>` quotes, links `<url|text>`, mentions `<@U…>`, `<#C…>`, `<!subteam^S…>`, `<!here>`, dates
 * `<!date^…>`, emoji, and Slack's entities. Everything is escaped first; only what Slack's syntax
 * says becomes markup. Code and the `<…>` tokens are taken out before the inline styles apply, so
 * nothing inside them is styled, and put back (as placeholders of private-use characters) after.
 */

const OPEN = '\uE000';
const CLOSE = '\uE001';

/** A link target the page may open: the web and mail, nothing that runs. */
const safeUrl = (url: string): boolean => /^(https?:\/\/|mailto:)/i.test(url);

function link(url: string, label: string | undefined): string {
  const text = esc(label ?? url);
  if (!safeUrl(url)) return text;
  return `<a href="${esc(url)}" target="_blank" rel="noopener noreferrer">${text}</a>`;
}

const mention = (text: string, kind: string): string => `<span class="mention ${kind}">${esc(text)}</span>`;

/** One `<…>` token (its inside, entities decoded): a link, a mention, a date or a special. */
function tokenHtml(inside: string, ctx: RenderContext): string {
  const bar = inside.indexOf('|');
  const [target, label] = bar < 0 ? [inside, undefined] : [inside.slice(0, bar), inside.slice(bar + 1)];
  const { directory } = ctx;
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return mention(`@${directory.user(id) ?? label ?? id}`, 'user');
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return mention(`#${directory.channel(id) ?? label ?? id}`, 'channel');
  }
  if (target.startsWith('!subteam^')) {
    const id = target.slice('!subteam^'.length);
    return mention(`@${directory.group(id) ?? label?.replace(/^@/, '') ?? id}`, 'group');
  }
  if (target.startsWith('!date^')) {
    const [, seconds = '', format = ''] = target.split('^');
    const text = slackDate(seconds, format, ctx.now) ?? label ?? target;
    const iso = /^\d+$/.test(seconds) ? new Date(Number(seconds) * 1000).toISOString() : '';
    return `<time datetime="${esc(iso)}" title="${esc(label ?? iso)}">${esc(text)}</time>`;
  }
  if (target === '!here' || target === '!channel' || target === '!everyone')
    return mention(`@${target.slice(1)}`, 'special');
  if (target.startsWith('!')) return esc(label ?? target);
  return link(target, label);
}

/** Inline styles on escaped text: Slack's markers need a word boundary outside, text inside. */
function styled(html: string): string {
  const around = (marker: string) =>
    new RegExp(
      `(^|[\\s(\\[{"'.,;:!?\\-${OPEN}${CLOSE}])\\${marker}(?=\\S)([^\\n${marker}]*?\\S)\\${marker}(?=$|[\\s)\\]}"'.,;:!?\\-${OPEN}${CLOSE}])`,
      'g',
    );
  return html
    .replace(around('*'), '$1<b>$2</b>')
    .replace(around('_'), '$1<i>$2</i>')
    .replace(around('~'), '$1<s>$2</s>');
}

/** One stretch of text outside code blocks: tokens and code spans out, styles, then back in. */
function inline(text: string, ctx: RenderContext): string {
  const held: string[] = [];
  const hold = (html: string): string => {
    held.push(html);
    return `${OPEN}${held.length - 1}${CLOSE}`;
  };
  const withoutCode = text.replace(/`([^`\n]+)`/g, (_w, code: string) =>
    hold(`<code>${esc(decodeSlack(code))}</code>`),
  );
  const withoutTokens = withoutCode.replace(/<([^<>\n]+)>/g, (_w, inside: string) =>
    hold(tokenHtml(decodeSlack(inside), ctx)),
  );
  const html = styled(emojify(esc(decodeSlack(withoutTokens))));
  return html.replace(new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'g'), (_w, i: string) => held[Number(i)] ?? '');
}

/** Lines starting with `>` (or its entity) are a quote. */
function lines(text: string, ctx: RenderContext): string {
  const out: string[] = [];
  let quote: string[] = [];
  const flush = () => {
    if (quote.length > 0) out.push(`<blockquote>${quote.join('<br>')}</blockquote>`);
    quote = [];
  };
  for (const line of text.split('\n')) {
    const quoted = /^(?:>|&gt;) ?(.*)$/.exec(line);
    if (quoted !== null) quote.push(inline(quoted[1] ?? '', ctx));
    else {
      flush();
      out.push(inline(line, ctx));
    }
  }
  flush();
  return out.join('<br>').replaceAll('</blockquote><br>', '</blockquote>');
}

export function mrkdwnHtml(text: string, ctx: RenderContext): string {
  return text
    .split(/```/)
    .map((piece, i) =>
      i % 2 === 1 ? `<pre>${esc(decodeSlack(piece.replace(/^\n/, '')))}</pre>` : lines(piece, ctx),
    )
    .join('');
}

/** A text object: mrkdwn, or plain text (shown as typed, emoji names as emoji when `emoji` is on). */
export function textHtml(value: unknown, ctx: RenderContext): string {
  if (typeof value !== 'object' || value === null) return '';
  const { type, text, emoji } = value as { type?: unknown; text?: unknown; emoji?: unknown };
  if (typeof text !== 'string') return '';
  if (type === 'mrkdwn') return mrkdwnHtml(text, ctx);
  const plain = esc(text).replaceAll('\n', '<br>');
  return emoji === false ? plain : emojify(plain);
}
