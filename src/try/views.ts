import { randomBytes } from 'node:crypto';
import { isObj, type Obj, objects } from './conversations.js';
import { SlackRefusal } from './refusal.js';

/** A modal on a person's screen: the view as the app sent it, and what the page typed into it. */
export interface OpenView {
  id: string;
  user: string;
  view: Obj;
  /** What was typed, by block id, kept when the app answers a submission with errors. */
  typed: Record<string, string>;
  /** Inline errors of the last submission (`response_action: errors`), by block id. */
  errors: Record<string, string>;
}

/** How long a trigger id may be used (Slack's are good for 3 s; a busy machine gets longer here). */
export const TRIGGER_MS = 30_000;

const newId = (prefix: string): string => `${prefix}${randomBytes(5).toString('hex').toUpperCase()}`;

/** Slack gives every block without an id one of its own. */
const withIds = (view: Obj): Obj => ({
  ...view,
  blocks: objects(view.blocks).map((b) =>
    typeof b.block_id === 'string' ? b : { ...b, block_id: randomBytes(3).toString('base64url') },
  ),
});

/**
 * Modals (a stack per person, as Slack keeps up to three) and App Home tabs, in memory, and the
 * trigger ids a modal may be opened with. `onChange` hears which person's screen changed.
 */
export class Views {
  readonly #stacks = new Map<string, OpenView[]>();
  readonly #homes = new Map<string, OpenView>();
  readonly #triggers = new Map<string, { user: string; until: number }>();
  readonly #onChange: (user: string, what: 'modal' | 'home') => void;
  readonly #now: () => number;

  constructor(onChange: (user: string, what: 'modal' | 'home') => void, now: () => number = Date.now) {
    this.#onChange = onChange;
    this.#now = now;
  }

  /** A trigger id for a click or a command of this person. */
  trigger(user: string): string {
    const id = `${Math.floor(this.#now() / 1000)}.${randomBytes(8).toString('hex')}`;
    for (const [key, t] of this.#triggers) if (t.until < this.#now()) this.#triggers.delete(key);
    this.#triggers.set(id, { user, until: this.#now() + TRIGGER_MS });
    return id;
  }

  #takeTrigger(id: unknown): string {
    const trigger = typeof id === 'string' ? this.#triggers.get(id) : undefined;
    if (trigger === undefined) throw new SlackRefusal('invalid_trigger_id');
    this.#triggers.delete(id as string);
    if (trigger.until < this.#now()) throw new SlackRefusal('expired_trigger_id');
    return trigger.user;
  }

  /** `views.open`: a new stack of one modal. */
  open(triggerId: unknown, view: unknown): OpenView {
    const user = this.#takeTrigger(triggerId);
    const opened = this.#modal(user, view);
    this.#stacks.set(user, [opened]);
    this.#onChange(user, 'modal');
    return opened;
  }

  /** `views.push`: on top of the person's stack (three at most). */
  push(triggerId: unknown, view: unknown): OpenView {
    const user = this.#takeTrigger(triggerId);
    const stack = this.#stacks.get(user) ?? [];
    if (stack.length === 0) throw new SlackRefusal('not_found');
    if (stack.length >= 3) throw new SlackRefusal('push_limit_reached');
    const pushed = this.#modal(user, view);
    stack.push(pushed);
    this.#onChange(user, 'modal');
    return pushed;
  }

  /** `views.update` by view id (or `external_id`): a modal in a stack, or a home tab. */
  update(viewId: unknown, externalId: unknown, view: unknown): OpenView {
    if (!isObj(view)) throw new SlackRefusal('invalid_arguments');
    const found = this.#find((v) =>
      typeof viewId === 'string' ? v.id === viewId : v.view.external_id === externalId,
    );
    if (found === undefined) throw new SlackRefusal('not_found');
    found.view = withIds(view);
    found.errors = {};
    this.#onChange(found.user, this.#homes.get(found.user) === found ? 'home' : 'modal');
    return found;
  }

  /** `views.publish`: a person's App Home. */
  publish(user: string, view: unknown): OpenView {
    if (!isObj(view) || view.type !== 'home') throw new SlackRefusal('invalid_arguments');
    const home = this.#homes.get(user) ?? { id: newId('V'), user, view: {}, typed: {}, errors: {} };
    home.view = withIds(view);
    this.#homes.set(user, home);
    this.#onChange(user, 'home');
    return home;
  }

  /** The modal on top of a person's stack. */
  top(user: string): OpenView | undefined {
    return this.#stacks.get(user)?.at(-1);
  }

  home(user: string): OpenView | undefined {
    return this.#homes.get(user);
  }

  /** A view by id, modal or home. */
  byId(viewId: string): OpenView | undefined {
    return this.#find((v) => v.id === viewId);
  }

  /** After a submission or a close: the top modal goes (or the whole stack, with `all`). */
  close(user: string, all = false): void {
    const stack = this.#stacks.get(user) ?? [];
    if (all) stack.length = 0;
    else stack.pop();
    this.#onChange(user, 'modal');
  }

  /** `response_action: update` and `errors` act on the modal that was submitted. */
  replaceTop(user: string, view: unknown): void {
    const top = this.top(user);
    if (top === undefined || !isObj(view)) return;
    top.view = withIds(view);
    top.errors = {};
    top.typed = {};
    this.#onChange(user, 'modal');
  }

  pushFromSubmission(user: string, view: unknown): void {
    const stack = this.#stacks.get(user);
    if (stack === undefined || !isObj(view)) return;
    stack.push(this.#modal(user, view));
    this.#onChange(user, 'modal');
  }

  showErrors(user: string, errors: Record<string, string>): void {
    const top = this.top(user);
    if (top === undefined) return;
    top.errors = errors;
    this.#onChange(user, 'modal');
  }

  #modal(user: string, view: unknown): OpenView {
    if (!isObj(view) || view.type !== 'modal') throw new SlackRefusal('invalid_arguments');
    return { id: newId('V'), user, view: withIds(view), typed: {}, errors: {} };
  }

  #find(match: (v: OpenView) => boolean): OpenView | undefined {
    for (const stack of this.#stacks.values()) {
      const found = stack.find(match);
      if (found !== undefined) return found;
    }
    return [...this.#homes.values()].find(match);
  }
}
