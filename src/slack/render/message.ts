import type { types } from '@slack/bolt';
import { internalError } from '../../core/errors.js';
import { optional } from '../../core/optional.js';

export type Block = types.KnownBlock;
export type Button = types.Button;

/** A message as bankops sends it: plain text for notifications, blocks, a table in an attachment. */
export interface SlackMessage {
  /** The notification text and the fallback where blocks cannot show. */
  text: string;
  blocks: Block[];
  /** Slack's `table` block must go in an attachment; one table per message. */
  attachments?: { blocks: Block[] }[];
}

/** Slack's limits (TOOLCHAIN "Slack"); everything rendered is paged or split to stay within them. */
export const LIMITS = {
  messageBlocks: 50,
  modalBlocks: 100,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  actionsElements: 25,
  blockId: 255,
  tableRows: 100,
  tableCells: 20,
  headerText: 150,
  contextElements: 10,
  buttonText: 75,
  buttonValue: 2000,
  optionText: 75,
  selectOptions: 100,
  viewTitle: 24,
  label: 2000,
  hint: 2000,
  placeholder: 150,
  privateMetadata: 3000,
  /** chat.postMessage truncates `text` beyond this; keep the notification line far shorter. */
  notificationText: 3000,
} as const;

/** Slack reads `&`, `<` and `>` as markup (`<!channel>`, links): text from the service is escaped. */
export const escapeText = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Splits text into pieces of at most `limit` characters, at a line break where there is one, else
 * at a space: long text is shown in full over several blocks, never cut.
 */
function splitText(text: string, limit: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let at = rest.lastIndexOf('\n', limit);
    if (at < limit / 2) at = rest.lastIndexOf(' ', limit);
    if (at < limit / 2) at = limit;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n/, '');
  }
  if (rest.length > 0 || pieces.length === 0) pieces.push(rest);
  return pieces;
}

/** A short string for a place with a hard limit (a button, a title): marked with … when shortened. */
export const clip = (text: string, limit: number): string =>
  text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;

export const plain = (text: string, limit: number = LIMITS.label): types.PlainTextElement => ({
  type: 'plain_text',
  text: clip(text, limit),
  emoji: true,
});

/** Markdown text as one or more sections (3,000 characters each). */
export const sections = (mrkdwn: string): Block[] =>
  splitText(mrkdwn, LIMITS.sectionText).map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } }));

/**
 * Label/value pairs as sections of at most 10 fields; a value too long for a field (2,000
 * characters) gets sections of its own, in full.
 */
export function fieldSections(pairs: readonly { label: string; value: string }[]): Block[] {
  const text = ({ label, value }: { label: string; value: string }) => `*${escapeText(label)}*\n${value}`;
  const short = pairs.filter((pair) => text(pair).length <= LIMITS.fieldText);
  const long = pairs.filter((pair) => text(pair).length > LIMITS.fieldText);
  const blocks: Block[] = [];
  for (let i = 0; i < short.length; i += LIMITS.fields) {
    const fields = short
      .slice(i, i + LIMITS.fields)
      .map((pair) => ({ type: 'mrkdwn' as const, text: text(pair) }));
    blocks.push({ type: 'section', fields });
  }
  for (const pair of long) blocks.push(...sections(text(pair)));
  return blocks;
}

export const context = (mrkdwn: string): Block => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text: clip(mrkdwn, LIMITS.sectionText) }],
});

export const header = (text: string): Block =>
  text.length <= LIMITS.headerText
    ? { type: 'header', text: plain(text, LIMITS.headerText) }
    : { type: 'section', text: { type: 'mrkdwn', text: clip(`*${escapeText(text)}*`, LIMITS.sectionText) } };

export function button(text: string, actionId: string, value: string, style?: 'primary' | 'danger'): Button {
  if (value.length > LIMITS.buttonValue) throw internalError(`button value of ${actionId} is too long`);
  return {
    type: 'button',
    text: plain(text, LIMITS.buttonText),
    action_id: actionId,
    value,
    ...optional('style', style),
  };
}

export const actions = (elements: Button[], blockId?: string): Block => ({
  type: 'actions',
  elements: elements.slice(0, LIMITS.actionsElements),
  ...optional('block_id', blockId),
});

/** A message of one short line, ephemeral answers' most common shape. */
export const line = (mrkdwn: string): SlackMessage => ({ text: mrkdwn, blocks: sections(mrkdwn) });

/**
 * Blocks into messages of at most `perMessage` blocks (Slack's 50, less what each page adds):
 * long content goes on over several messages, never cut.
 */
export function pageBlocks(blocks: readonly Block[], perMessage: number): Block[][] {
  const pages: Block[][] = [];
  for (let i = 0; i < blocks.length; i += perMessage) pages.push(blocks.slice(i, i + perMessage));
  return pages.length === 0 ? [[]] : pages;
}
