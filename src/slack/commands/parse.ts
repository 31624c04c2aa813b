import { ArgsError, inputFromArgs, type JsonSchema, tokenize } from '../../present/args.js';
import { didYouMean } from '../../present/suggest.js';
import { COMMAND_WORDS, type Command } from './command.js';

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
 * Slack sends `&`, `<` and `>` of typed text as entities; channel links arrive as `<#C123|name>`
 * (the manifest sets `should_escape`). Entities are decoded after links are read.
 */
const decodeEntities = (text: string): string =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

const CHANNEL_LINK = /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/;
const AMOUNT = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;
const CURRENCY = /^[A-Za-z]{3}$/;

const usage = (message: string): Command => ({ kind: 'usage', message });

function amountOf(token: string | undefined): number | undefined {
  if (token === undefined || !AMOUNT.test(token)) return undefined;
  return Number(token.replaceAll(',', ''));
}

const currencyOf = (token: string | undefined): string | undefined =>
  token !== undefined && CURRENCY.test(token) ? token.toUpperCase() : undefined;

/** `key=value` tokens after a short form, read against the tool's schema; undefined input when none. */
function extras(tool: string, tokens: readonly string[], context: GrammarContext): Record<string, unknown> {
  return tokens.length === 0 ? {} : inputFromArgs(tokens, context.schemaOf(tool) ?? {});
}

function payout(rest: string[], context: GrammarContext): Command {
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
    side: 'SOURCE',
    ...extras('create_payout', more, context),
  };
  return { kind: 'tool', tool: 'create_payout', input, form: 'payout' };
}

function convert(rest: string[], context: GrammarContext): Command {
  const [amount, source, to, target, ...more] = rest;
  const value = amountOf(amount);
  const from = currencyOf(source);
  const into = currencyOf(target);
  if (value === undefined || from === undefined || to !== 'to' || into === undefined) {
    return usage(
      'convert reads `/bank convert <amount> <CUR> to <CUR>`, e.g. `/bank convert 500 USD to EUR`',
    );
  }
  const input = {
    amount: value,
    sourceAssetCode: from,
    targetAssetCode: into,
    side: 'SOURCE',
    ...extras('create_conversion', more, context),
  };
  return { kind: 'tool', tool: 'create_conversion', input, form: 'convert' };
}

const BLOCK_REASONS: Record<string, string> = { lost: 'LOST', stolen: 'STOLEN', blocked: 'BLOCKED' };

function card(rest: string[]): Command {
  const [first, second, third, ...more] = rest;
  const status = 'update_card_status_b';
  if (first === 'lock' || first === 'unlock') {
    if (!second || third !== undefined) return usage(`card ${first} reads \`/bank card ${first} <cardId>\``);
    const input = { cardId: second, status: first === 'lock' ? 'LOCKED' : 'ACTIVE' };
    return { kind: 'tool', tool: status, input, form: `card ${first}` };
  }
  if (first === 'block') {
    const reason = third === undefined ? undefined : BLOCK_REASONS[third.toLowerCase()];
    if (!second || reason === undefined || more.length > 0) {
      return usage(
        'card block reads `/bank card block <cardId> lost|stolen|blocked`: the reason is needed, and the block is permanent',
      );
    }
    return { kind: 'tool', tool: status, input: { cardId: second, status: reason }, form: 'card block' };
  }
  if (!first || second !== undefined) {
    return usage(
      'card reads `/bank card <cardId>`, `/bank card lock|unlock <cardId>` or `/bank card block <cardId> lost|stolen|blocked`',
    );
  }
  return { kind: 'tool', tool: 'get_card_details_b', input: { cardId: first }, form: 'card' };
}

function subscribe(rest: string[]): Command {
  const [event, where, ...more] = rest;
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
}

function generic(word: string, rest: string[], context: GrammarContext): Command {
  const schema = context.schemaOf(word);
  if (schema === undefined) {
    const meant = didYouMean(word, [...COMMAND_WORDS, ...context.toolNames]);
    return usage(
      `\`${word}\` is neither a tool nor a short form${meant === '' ? '' : `; ${meant}`} \`/bank help\` lists what you can do`,
    );
  }
  if (context.isSecretInput(word)) return { kind: 'tool', tool: word, input: {}, form: 'generic' };
  return { kind: 'tool', tool: word, input: inputFromArgs(rest, schema), form: 'generic' };
}

/** The command a `/bank` text stands for; never throws (a usage error is a command too). */
export function parseCommand(text: string, context: GrammarContext): Command {
  // Channel links stay whole tokens; everything else is decoded before tokenizing.
  const decoded = text.replace(/<#[^>]+>|[^<]+|</g, (part) =>
    part.startsWith('<#') ? part : decodeEntities(part),
  );
  let tokens: string[];
  try {
    tokens = tokenize(decoded);
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  const [word, ...rest] = tokens;
  try {
    switch (word) {
      case undefined:
      case 'help':
        return rest[0] === undefined ? { kind: 'help' } : { kind: 'help', topic: rest.join(' ') };
      case 'balances':
        return {
          kind: 'tool',
          tool: 'get_balances',
          input: extras('get_balances', rest, context),
          form: 'balances',
        };
      case 'accounts': {
        const currency = currencyOf(rest[0]);
        const more = currency === undefined ? rest : rest.slice(1);
        const input = {
          ...(currency === undefined ? {} : { currency }),
          ...extras('list_accounts', more, context),
        };
        return { kind: 'tool', tool: 'list_accounts', input, form: 'accounts' };
      }
      case 'payout':
        return payout(rest, context);
      case 'convert':
        return convert(rest, context);
      case 'card':
        return card(rest);
      case 'approvals':
        return rest.length === 0
          ? { kind: 'approvals' }
          : usage('approvals takes nothing more: `/bank approvals`');
      case 'subscribe':
        return subscribe(rest);
      case 'unsubscribe':
        return rest.length === 1 && rest[0]
          ? { kind: 'unsubscribe', event: rest[0] }
          : usage('unsubscribe reads `/bank unsubscribe <event>`');
      case 'audit':
        return rest.length === 1 && rest[0] === 'anchor'
          ? { kind: 'audit-anchor' }
          : usage("audit reads `/bank audit anchor` (posts the audit log's head to the audit channel)");
      default:
        return generic(word, rest, context);
    }
  } catch (error) {
    if (error instanceof ArgsError) return usage(error.message);
    throw error;
  }
}
