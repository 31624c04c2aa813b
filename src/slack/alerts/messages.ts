import type { AlertPost, AlertView } from '../../core/alerts/index.js';
import { balanceWords, standingWords, thresholdWords } from '../../present/alert-words.js';
import { escapeText, line, type SlackMessage } from '../render/message.js';

const ERROR_SHOWN = 300;

/** How an alert reads in a list and a confirmation: `alr_… EUR below 20,000.00 EUR → #channel`. */
const alertWords = (alert: AlertView): string =>
  `\`${alert.id}\` ${alert.currency} below ${thresholdWords(alert)} → <#${alert.channel}>`;

const standing = (alert: AlertView): string => {
  const words = standingWords(alert);
  return alert.level === 'below' && !alert.readFailing ? `*${words}*` : words;
};

/** `5`, `0.5`: the check's interval in minutes, to a tenth. */
const minutes = (seconds: number): number => Math.round((seconds / 60) * 10) / 10;

/** What an alert posts to its channel. */
export function alertPostMessage(post: AlertPost): SlackMessage {
  const { alert } = post;
  const threshold = thresholdWords(alert);
  const balance = post.balance === undefined ? '' : balanceWords(post.balance);
  const id = `(alert \`${alert.id}\`)`;
  switch (post.kind) {
    case 'below':
      return line(
        `:warning: *The ${alert.currency} balance is below ${threshold}*: ${balance} available ${id}.`,
      );
    case 'recovered':
      return line(
        `:white_check_mark: *The ${alert.currency} balance is back at or above ${threshold}*: ${balance} available ${id}.`,
      );
    case 'read-failed':
      return line(
        `:grey_question: The ${alert.currency} balance cannot be read: ${escapeText((post.error ?? 'no answer').slice(0, ERROR_SHOWN))}. Nothing is posted about ${threshold} until it can; this is said once ${id}.`,
      );
    case 'read-ok':
      return line(
        `:information_source: The ${alert.currency} balance can be read again: ${balance} available ${id}.`,
      );
  }
}

/** `/bank alert balance …` done. */
export const addedMessage = (added: { alert: AlertView; checkEverySeconds: number }): SlackMessage =>
  line(
    `:white_check_mark: Alert ${alertWords(added.alert)}: posted once when the balance goes below, and once when it recovers; checked every ${minutes(added.checkEverySeconds)} min.`,
  );

/** `/bank alert list`. */
export function alertListMessage(list: {
  alerts: readonly AlertView[];
  checkEverySeconds: number;
}): SlackMessage {
  if (list.alerts.length === 0)
    return line('No balance alerts. `/bank alert balance <CUR> below <amount> [#channel]` adds one.');
  const rows = list.alerts.map((alert) => `• ${alertWords(alert)}: ${standing(alert)}`);
  return line(
    `*Balance alerts* (checked every ${minutes(list.checkEverySeconds)} min):\n${rows.join('\n')}\n\`/bank alert remove <id>\` stops one.`,
  );
}

/** `/bank alert remove <id>` done. */
export const removedMessage = (alert: AlertView): SlackMessage =>
  line(`:wastebasket: Alert ${alertWords(alert)} removed.`);
