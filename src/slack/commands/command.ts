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
  /** Balance alerts: add one (this channel unless another is given), list them, remove one. */
  | { kind: 'alert-add'; currency: string; amount: number; channel?: string }
  | { kind: 'alert-list' }
  | { kind: 'alert-remove'; id: string }
  /** A one-time link to register a passkey (for approvals that need one). */
  | { kind: 'passkey' }
  /** The text does not parse: one line saying what was expected, with a suggestion when one is close. */
  | { kind: 'usage'; message: string };
