import { maskCardNumbersInText, redact } from '../../core/redact.js';
import { labelOf } from '../../present/output/format.js';
import { slackTime } from '../approvals/messages/wording.js';
import {
  context,
  escapeText,
  fieldSections,
  header,
  LIMITS,
  pageBlocks,
  type SlackMessage,
} from './message.js';

export interface ServiceEvent {
  event_id: string;
  event_name: string;
  event_description?: string | undefined;
  occurred_at?: string | undefined;
  data?: unknown;
}

const scalar = (value: unknown): string =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** An ISO 8601 date-time the service sent (`2026-11-25T10:00:00Z`, with or without zone or fraction). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A value as people read it: times in each reader's own zone (Slack's date token), text escaped. */
function shown(value: unknown): string {
  const text = scalar(value);
  if (typeof value === 'string' && ISO_TIME.test(value) && /(Z|[+-]\d{2}:?\d{2})$/.test(value))
    return slackTime(value);
  return escapeText(maskCardNumbersInText(text));
}

/** `card.cardholderId` → `Card · Cardholder ID`: each part labelled as tables label fields. */
const labelPath = (path: string): string => path.split('.').map(labelOf).join(' · ');

/** A card's words when bankops has seen it (`••••4821`). */
export type CardWords = (cardId: string) => string | undefined;

/** The event's data as dotted label/value pairs, secrets redacted and card numbers masked. */
function pairsOf(data: unknown, card: CardWords): { label: string; value: string }[] {
  const pairs: { label: string; value: string }[] = [];
  const visit = (value: unknown, path: string): void => {
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.keys(value).length > 0
    ) {
      for (const [key, inner] of Object.entries(value)) visit(inner, path === '' ? key : `${path}.${key}`);
      return;
    }
    // A card by its last four where bankops has seen it, its id kept beside for lookups.
    const known = /card_?id$/i.test(path) && typeof value === 'string' ? card(value) : undefined;
    const text = known === undefined ? shown(value) : `${known} (\`${escapeText(String(value))}\`)`;
    pairs.push({ label: path === '' ? 'Data' : labelPath(path), value: text });
  };
  if (data !== undefined) visit(redact(data), '');
  return pairs;
}

/** The card ids the event's data names (in fields a card's words would stand beside). */
export function cardIdsOf(data: unknown): string[] {
  const ids: string[] = [];
  pairsOf(data, (cardId) => {
    ids.push(cardId);
    return undefined;
  });
  return ids;
}

/**
 * A delivery as channel messages: what happened and when, then the event's data as fields. A secret
 * the service might send (a PIN, a link, a card number) never reaches the channel. Long data goes
 * on over more messages.
 */
export function serviceEventMessages(event: ServiceEvent, card: CardWords = () => undefined): SlackMessage[] {
  const what = event.event_description ? `${event.event_name}: ${event.event_description}` : event.event_name;
  const text = `:bell: ${escapeText(what)}`;
  const body = fieldSections(pairsOf(event.data, card));
  const footer = context(
    `Event \`${escapeText(event.event_id)}\`${event.occurred_at ? ` at ${shown(event.occurred_at)}` : ''}, from the service`,
  );
  const pages = pageBlocks(body, LIMITS.messageBlocks - 2);
  return pages.map((blocks, index) => ({
    text: pages.length === 1 ? text : `${text} (${index + 1}/${pages.length})`,
    blocks: [
      header(pages.length === 1 ? `🔔 ${what}` : `🔔 ${what} (${index + 1}/${pages.length})`),
      ...blocks,
      footer,
    ],
  }));
}
