import { optional } from '../../core/optional.js';
import { inputFromArgs, type JsonSchema, readNumber } from '../../present/args.js';
import { ALERT_FORMS } from './alert-forms.js';
import type { Command } from './command.js';
import { PAYEE_FORMS } from './payee-forms.js';

/** What the grammar needs to know of the tools (the registry's, in the app; a fixed list in tests). */
export interface GrammarContext {
  /** The input JSON Schema of a tool, or undefined when there is no such tool. */
  schemaOf(tool: string): JsonSchema | undefined;
  /**
   * A tool whose input is a secret a person holds (PIN, code, card number): its arguments are not
   * even read, so no error message can repeat them; the listener refuses it.
   */
  isSecretInput(tool: string): boolean;
  /** Every tool name, for "did you mean". */
  toolNames: readonly string[];
}

/**
 * A short form of daily work: everything about it in one record. The parser picks it by its first
 * word (`takes` tells forms sharing one apart), `/bank help` shows its line to the people who may
 * call its tool, and "did you mean" offers its word.
 */
export interface ShortForm {
  /** Its name in help and messages: `payout`, `card lock`. */
  name: string;
  /** The first word typed. */
  word: string;
  /** Whether the words after `word` are this form's; the form of a word without `takes` reads the rest. */
  takes?(rest: readonly string[]): boolean;
  /** Its grammar as help shows it, after `/bank `. */
  usage: string;
  /** What it does, in a few words. */
  what: string;
  /** The tool it runs (help lists the form only to those who may call it); none for Slack's own. */
  tool?: string;
  read(rest: string[], context: GrammarContext): Command;
}

const CHANNEL_LINK = /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/;
const CURRENCY = /^[A-Za-z]{3}$/;

export const usage = (message: string): Command => ({ kind: 'usage', message });

/**
 * The amount of a short form, read as every front end reads a number (`1,000.50`); a negative one
 * goes on, for the core to say what is wrong with it.
 */
function amountOf(token: string | undefined): number | undefined {
  return token === undefined ? undefined : readNumber(token);
}

const currencyOf = (token: string | undefined): string | undefined =>
  token !== undefined && CURRENCY.test(token) ? token.toUpperCase() : undefined;

/** `key=value` tokens after a short form, read against the tool's schema. */
function extras(tool: string, tokens: readonly string[], context: GrammarContext): Record<string, unknown> {
  return tokens.length === 0 ? {} : inputFromArgs(tokens, context.schemaOf(tool) ?? {});
}

/** A short form's tool command: its fixed words as input, then any `key=value` typed after them. */
function runs(
  tool: string,
  form: string,
  input: Record<string, unknown>,
  more: readonly string[],
  context: GrammarContext,
): Command {
  return { kind: 'tool', tool, input: { ...input, ...extras(tool, more, context) }, form };
}

const balances: ShortForm = {
  name: 'balances',
  word: 'balances',
  usage: 'balances',
  what: 'balances per currency',
  tool: 'get_balances',
  read: (rest, context) => runs('get_balances', 'balances', {}, rest, context),
};

const accounts: ShortForm = {
  name: 'accounts',
  word: 'accounts',
  usage: 'accounts [CUR]',
  what: 'receiving accounts, of one currency if given',
  tool: 'list_accounts',
  read: (rest, context) => {
    const currency = currencyOf(rest[0]);
    const more = currency === undefined ? rest : rest.slice(1);
    const input = {
      ...optional('currency', currency),
      ...extras('list_accounts', more, context),
    };
    return { kind: 'tool', tool: 'list_accounts', input, form: 'accounts' };
  },
};

const payout: ShortForm = {
  name: 'payout',
  word: 'payout',
  usage: 'payout <amount> <CUR> to <beneficiary> from <account>',
  what: 'send a payout (waits for approval)',
  tool: 'create_payout',
  read: (rest, context) => {
    const [amount, currency, to, beneficiary, from, account, ...more] = rest;
    const value = amountOf(amount);
    const cur = currencyOf(currency);
    if (
      value === undefined ||
      cur === undefined ||
      to !== 'to' ||
      !beneficiary ||
      from !== 'from' ||
      !account
    ) {
      return usage(
        'payout reads `/bank payout <amount> <CUR> to <beneficiary> from <account>`, e.g. `/bank payout 1000 USD to ben_de_swift_0001 from acc_usd_0001`',
      );
    }
    const input = {
      amount: value,
      sourceAssetCode: cur,
      beneficiaryId: beneficiary,
      sourceAccountId: account,
    };
    return runs('create_payout', 'payout', { ...input, side: 'SOURCE' }, more, context);
  },
};

const convert: ShortForm = {
  name: 'convert',
  word: 'convert',
  usage: 'convert <amount> <CUR> to <CUR>',
  what: 'convert currency (waits for approval)',
  tool: 'create_conversion',
  read: (rest, context) => {
    const [amount, source, to, target, ...more] = rest;
    const value = amountOf(amount);
    const from = currencyOf(source);
    const into = currencyOf(target);
    if (value === undefined || from === undefined || to !== 'to' || into === undefined) {
      return usage(
        'convert reads `/bank convert <amount> <CUR> to <CUR>`, e.g. `/bank convert 500 USD to EUR`',
      );
    }
    const input = { amount: value, sourceAssetCode: from, targetAssetCode: into, side: 'SOURCE' };
    return runs('create_conversion', 'convert', input, more, context);
  },
};

const CARD_STATUS = 'update_card_status_b';

const cardLock: ShortForm = {
  name: 'card lock',
  word: 'card',
  takes: (rest) => rest[0] === 'lock' || rest[0] === 'unlock',
  usage: 'card lock|unlock <cardId>',
  what: 'lock a card for now, or unlock it',
  tool: CARD_STATUS,
  read: ([verb, cardId, extra]) => {
    if (!cardId || extra !== undefined) return usage(`card ${verb} reads \`/bank card ${verb} <cardId>\``);
    const input = { cardId, status: verb === 'lock' ? 'LOCKED' : 'ACTIVE' };
    return { kind: 'tool', tool: CARD_STATUS, input, form: `card ${verb}` };
  },
};

const BLOCK_REASONS: Record<string, string> = { lost: 'LOST', stolen: 'STOLEN', blocked: 'BLOCKED' };

const cardBlock: ShortForm = {
  name: 'card block',
  word: 'card',
  takes: (rest) => rest[0] === 'block',
  usage: 'card block <cardId> lost|stolen|blocked',
  what: 'block a card for good (waits for approval)',
  tool: CARD_STATUS,
  read: ([, cardId, why, ...more]) => {
    const reason = why === undefined ? undefined : BLOCK_REASONS[why.toLowerCase()];
    if (!cardId || reason === undefined || more.length > 0) {
      return usage(
        'card block reads `/bank card block <cardId> lost|stolen|blocked`: the reason is needed, and the block is permanent',
      );
    }
    return { kind: 'tool', tool: CARD_STATUS, input: { cardId, status: reason }, form: 'card block' };
  },
};

const card: ShortForm = {
  name: 'card',
  word: 'card',
  usage: 'card <cardId>',
  what: 'a family B card: last four, status, limits',
  tool: 'get_card_details_b',
  read: ([cardId, extra]) => {
    if (!cardId || extra !== undefined) {
      return usage(
        'card reads `/bank card <cardId>`, `/bank card lock|unlock <cardId>` or `/bank card block <cardId> lost|stolen|blocked`',
      );
    }
    return { kind: 'tool', tool: 'get_card_details_b', input: { cardId }, form: 'card' };
  },
};

const approvals: ShortForm = {
  name: 'approvals',
  word: 'approvals',
  usage: 'approvals',
  what: 'approvals waiting for you, and yours',
  tool: 'list_approvals',
  read: (rest) =>
    rest.length === 0 ? { kind: 'approvals' } : usage('approvals takes nothing more: `/bank approvals`'),
};

const subscribe: ShortForm = {
  name: 'subscribe',
  word: 'subscribe',
  usage: 'subscribe <event> [#channel]',
  what: "post the service's event to a channel (this one by default)",
  tool: 'create_event_relay',
  read: ([event, where, ...more]) => {
    if (!event || more.length > 0) {
      return usage(
        'subscribe reads `/bank subscribe <event> [#channel]`, e.g. `/bank subscribe card_create #card-ops`',
      );
    }
    if (where === undefined) return { kind: 'subscribe', event };
    const link = CHANNEL_LINK.exec(where);
    if (link?.[1] === undefined) {
      return usage(
        `'${where}' is not a channel Slack linked: type # and pick the channel from the list (or leave it out for this one)`,
      );
    }
    return { kind: 'subscribe', event, channel: link[1] };
  },
};

const unsubscribe: ShortForm = {
  name: 'unsubscribe',
  word: 'unsubscribe',
  usage: 'unsubscribe <event>',
  what: 'stop posting an event (waits for approval)',
  tool: 'delete_subscription',
  read: (rest) =>
    rest.length === 1 && rest[0]
      ? { kind: 'unsubscribe', event: rest[0] }
      : usage('unsubscribe reads `/bank unsubscribe <event>`'),
};

const auditAnchor: ShortForm = {
  name: 'audit anchor',
  word: 'audit',
  usage: 'audit anchor',
  what: "post the audit log's head to the audit channel",
  read: (rest) =>
    rest.length === 1 && rest[0] === 'anchor'
      ? { kind: 'audit-anchor' }
      : usage("audit reads `/bank audit anchor` (posts the audit log's head to the audit channel)"),
};

const passkey: ShortForm = {
  name: 'passkey',
  word: 'passkey',
  usage: 'passkey',
  what: 'a link to register a passkey, for approvals that need one',
  read: (rest) =>
    rest.length === 0 ? { kind: 'passkey' } : usage('passkey takes nothing more: `/bank passkey`'),
};

/** The short forms, in the order `/bank help` lists them. */
export const SHORT_FORMS: readonly ShortForm[] = [
  balances,
  accounts,
  payout,
  convert,
  card,
  cardLock,
  cardBlock,
  approvals,
  subscribe,
  unsubscribe,
  ...ALERT_FORMS,
  ...PAYEE_FORMS,
  auditAnchor,
  passkey,
];

/** The short form a command's words stand for, if its first word is one's: one that `takes` them, else the plain one. */
export function shortFormOf(word: string, rest: readonly string[]): ShortForm | undefined {
  const forms = SHORT_FORMS.filter((form) => form.word === word);
  return forms.find((form) => form.takes?.(rest) === true) ?? forms.find((form) => form.takes === undefined);
}

/** The first words a command may start with besides tool names, for "did you mean". */
export const commandWords = (): string[] => ['help', ...new Set(SHORT_FORMS.map((form) => form.word))];
