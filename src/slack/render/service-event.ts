import { maskCardNumbersInText, redact } from '../../core/redact.js';
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

/** The event's data as dotted label/value pairs, secrets redacted and card numbers masked. */
function pairsOf(data: unknown): { label: string; value: string }[] {
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
    pairs.push({
      label: path === '' ? 'data' : path,
      value: escapeText(maskCardNumbersInText(scalar(value))),
    });
  };
  if (data !== undefined) visit(redact(data), '');
  return pairs;
}

/**
 * A delivery as channel messages: what happened and when, then the event's data as fields. A secret
 * the service might send (a PIN, a link, a card number) never reaches the channel. Long data goes
 * on over more messages.
 */
export function serviceEventMessages(event: ServiceEvent): SlackMessage[] {
  const what = event.event_description ? `${event.event_name}: ${event.event_description}` : event.event_name;
  const text = `:bell: ${escapeText(what)}`;
  const body = fieldSections(pairsOf(event.data));
  const footer = context(
    `Event \`${escapeText(event.event_id)}\`${event.occurred_at ? ` at ${escapeText(event.occurred_at)}` : ''}, from the service`,
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
