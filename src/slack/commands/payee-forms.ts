import { inputFromArgs } from '../../present/args.js';
import type { Command } from './command.js';
import type { GrammarContext, ShortForm } from './short-forms.js';

const GRAMMAR =
  'payee reads `/bank payee name <beneficiaryId> <name>` or `/bank payee verify <payee> contact="<number>" note="<who confirmed what>"`';

const usage = (message: string): Command => ({ kind: 'usage', message });

/** A `key=value` token; the words before the first one are the form's own. */
const isPair = (token: string): boolean => token.indexOf('=') > 0;

/** `/bank payee name ben_… Acme Corp`: the words after the id are the name, quoted or not. */
const payeeName: ShortForm = {
  name: 'payee name',
  word: 'payee',
  takes: (rest) => rest[0] === 'name',
  usage: 'payee name <beneficiaryId> <name>',
  what: 'give a beneficiary made elsewhere its name (waits for approval; starts the cooling-off)',
  tool: 'name_payee',
  read: ([, beneficiaryId, ...words]) => {
    const name = words.join(' ').trim();
    if (beneficiaryId === undefined || name === '' || words.some(isPair)) {
      return usage(
        'payee name reads `/bank payee name <beneficiaryId> <name>`, e.g. `/bank payee name ben_us_ach_0001 Acme Corp`',
      );
    }
    return { kind: 'tool', tool: 'name_payee', input: { beneficiaryId, name }, form: 'payee name' };
  },
};

/**
 * `/bank payee verify Acme Corp contact="+1 555 0100 2233" note="Jane Doe confirmed"`: the payee
 * (an id or a name, quoted or not) up to the first `key=value`; the method is the call-back. A
 * missing field opens the tool's form with the payee filled in.
 */
const payeeVerify: ShortForm = {
  name: 'payee verify',
  word: 'payee',
  usage: 'payee verify <payee> contact="<number>" note="<who confirmed what>"',
  what: "record a call-back confirming a payee's bank details (role verifier)",
  tool: 'verify_payee',
  read: ([verb, ...rest], context: GrammarContext) => {
    if (verb !== 'verify') return usage(GRAMMAR);
    const first = rest.findIndex(isPair);
    const words = first === -1 ? rest : rest.slice(0, first);
    const pairs = first === -1 ? [] : rest.slice(first);
    const payee = words.join(' ').trim();
    if (payee === '' || pairs.some((token) => !isPair(token))) {
      return usage(
        'payee verify reads `/bank payee verify <payee> contact="<number>" note="<who confirmed what>"`: the payee first (an id or a name), then the fields',
      );
    }
    const more = inputFromArgs(pairs, context.schemaOf('verify_payee') ?? {});
    const input = { payee, method: 'callback', ...more };
    return { kind: 'tool', tool: 'verify_payee', input, form: 'payee verify' };
  },
};

/** The forms of `/bank payee …`, in the order help lists them; `payee` with anything else gets the grammar. */
export const PAYEE_FORMS: readonly ShortForm[] = [payeeName, payeeVerify];
