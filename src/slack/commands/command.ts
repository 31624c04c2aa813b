/**
 * What `/bank …` asks for, before anything is looked up: the grammar of DESIGN decision 8, one for
 * every tool (`/bank <tool> key=value …`) plus the short forms of daily work. Parsing is pure; the
 * command listener resolves card ids, checks the policy, opens modals and runs the executor.
 */
export type Command =
  | { kind: 'help'; topic?: string }
  /** Run a tool: the generic form or a short form (`form` names which, for messages). */
  | { kind: 'tool'; tool: string; input: Record<string, unknown>; form: string }
  | { kind: 'approvals' }
  | { kind: 'subscribe'; event: string; channel?: string }
  | { kind: 'unsubscribe'; event: string }
  | { kind: 'audit-anchor' }
  /** The text does not parse: one line saying what was expected, with a suggestion when one is close. */
  | { kind: 'usage'; message: string };

/** The short forms, as `/bank help` lists them. */
export const SHORT_FORMS: readonly { form: string; usage: string; what: string }[] = [
  { form: 'balances', usage: 'balances', what: 'balances per currency' },
  { form: 'accounts', usage: 'accounts [CUR]', what: 'receiving accounts, of one currency if given' },
  {
    form: 'payout',
    usage: 'payout <amount> <CUR> to <beneficiary> from <account>',
    what: 'send a payout (waits for approval)',
  },
  {
    form: 'convert',
    usage: 'convert <amount> <CUR> to <CUR>',
    what: 'convert currency (waits for approval)',
  },
  { form: 'card', usage: 'card <cardId>', what: 'a family B card: last four, status, limits' },
  { form: 'card lock', usage: 'card lock|unlock <cardId>', what: 'lock a card for now, or unlock it' },
  {
    form: 'card block',
    usage: 'card block <cardId> lost|stolen|blocked',
    what: 'block a card for good (waits for approval)',
  },
  { form: 'approvals', usage: 'approvals', what: 'approvals waiting for you, and yours' },
  {
    form: 'subscribe',
    usage: 'subscribe <event> [#channel]',
    what: "post the service's event to a channel (this one by default)",
  },
  { form: 'unsubscribe', usage: 'unsubscribe <event>', what: 'stop posting an event (waits for approval)' },
  { form: 'audit anchor', usage: 'audit anchor', what: "post the audit log's head to the audit channel" },
];

/** The first words a command may start with, besides tool names (for "did you mean"). */
export const COMMAND_WORDS = [
  'help',
  'balances',
  'accounts',
  'payout',
  'convert',
  'card',
  'approvals',
  'subscribe',
  'unsubscribe',
  'audit',
] as const;
