import { readNumber } from '../../present/args.js';
import type { Command } from './command.js';
import type { ShortForm } from './short-forms.js';

const CHANNEL_LINK = /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/;
const GRAMMAR =
  'alert reads `/bank alert balance <CUR> below <amount> [#channel]`, `/bank alert list` or `/bank alert remove <id>`';

const usage = (message: string): Command => ({ kind: 'usage', message });

/** `/bank alert balance EUR below 20000 [#channel]`: the amount as typed (`20,000.50`), checked by the core. */
const alertBalance: ShortForm = {
  name: 'alert balance',
  word: 'alert',
  takes: (rest) => rest[0] === 'balance',
  usage: 'alert balance <CUR> below <amount> [#channel]',
  what: 'post when a balance goes below an amount, and when it recovers (this channel by default)',
  tool: 'create_balance_alert',
  read: ([, currency, below, amount, where, ...more]) => {
    const value = amount === undefined || amount.startsWith('-') ? undefined : readNumber(amount);
    if (!currency || below !== 'below' || value === undefined || more.length > 0) {
      return usage(
        'alert balance reads `/bank alert balance <CUR> below <amount> [#channel]`, e.g. `/bank alert balance EUR below 20000 #treasury`',
      );
    }
    const input = { kind: 'alert-add' as const, currency: currency.toUpperCase(), amount: value };
    if (where === undefined) return input;
    const link = CHANNEL_LINK.exec(where);
    if (link?.[1] === undefined) {
      return usage(
        `'${where}' is not a channel Slack linked: type # and pick the channel from the list (or leave it out for this one)`,
      );
    }
    return { ...input, channel: link[1] };
  },
};

/** Also the form of `alert` followed by anything else: that gets the whole grammar. */
const alertList: ShortForm = {
  name: 'alert list',
  word: 'alert',
  usage: 'alert list',
  what: 'the balance alerts and where each stands',
  tool: 'list_balance_alerts',
  read: (rest) => {
    if (rest[0] !== 'list') return usage(GRAMMAR);
    return rest.length === 1 ? { kind: 'alert-list' } : usage('alert list takes nothing more');
  },
};

const alertRemove: ShortForm = {
  name: 'alert remove',
  word: 'alert',
  takes: (rest) => rest[0] === 'remove',
  usage: 'alert remove <id>',
  what: 'stop a balance alert',
  tool: 'delete_balance_alert',
  read: ([, id, ...more]) =>
    id !== undefined && more.length === 0
      ? { kind: 'alert-remove', id }
      : usage('alert remove reads `/bank alert remove <id>` (`/bank alert list` shows the ids)'),
};

/** The forms of `/bank alert …`, in the order help lists them. */
export const ALERT_FORMS: readonly ShortForm[] = [alertBalance, alertList, alertRemove];
