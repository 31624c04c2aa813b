import type { SandboxClockControl } from './clock.js';
import type { Completion } from './completions.js';
import type { Conversations } from './conversations.js';
import { BOT, PEOPLE, personById, SLACKBOT, TREASURY } from './people.js';
import type { Directory, RenderContext } from './render/html.js';
import { type Author, unitHtml } from './render/message.js';
import { homeHtml, modalHtml } from './render/view.js';
import type { Views } from './views.js';

const authorOf = (user: string): Author =>
  user === BOT.userId
    ? { name: BOT.name, app: true }
    : { name: user === SLACKBOT.userId ? SLACKBOT.name : (personById(user)?.name ?? user), app: false };

/**
 * What each person's page shows, rendered on the server: a message of a channel with its thread,
 * the modal on top of their stack, their App Home, and everything at once when a page connects.
 * What could not be shown is remembered (`unsupported`) and told once per kind.
 */
export class Screens {
  readonly unsupported = new Set<string>();
  readonly #conversations: Conversations;
  readonly #views: Views;
  readonly #directory: Directory;

  readonly #onUnsupported: (kind: string) => void;

  constructor(conversations: Conversations, views: Views, onUnsupported: (kind: string) => void) {
    this.#conversations = conversations;
    this.#views = views;
    this.#onUnsupported = onUnsupported;
    this.#directory = {
      user: (id) => personById(id)?.name ?? (id === BOT.userId ? BOT.name : undefined),
      channel: (id) => conversations.resolve(id)?.name,
      group: (id) => (id === TREASURY.id ? TREASURY.handle : undefined),
    };
  }

  #render(idPrefix: string, render: (ctx: RenderContext) => string): string {
    const ctx: RenderContext = { directory: this.#directory, now: Date.now(), unsupported: [], idPrefix };
    const html = render(ctx);
    for (const kind of ctx.unsupported) {
      if (!this.unsupported.has(kind)) this.#onUnsupported(kind);
      this.unsupported.add(kind);
    }
    return html;
  }

  /** A message of a channel and its thread as `user` sees them; '' when they see nothing of it. */
  unit(user: string, channel: string, ts: string): string {
    const conversations = this.#conversations;
    const where = conversations.resolve(channel);
    if (where === undefined || !conversations.sees(user, where)) return '';
    const seen = conversations.visible(channel, user);
    const top = seen.find((m) => m.ts === ts && m.threadTs === undefined);
    if (top === undefined) return '';
    const replies = seen.filter((m) => m.threadTs === ts);
    return this.#render(`${channel}-${ts}`, (ctx) => unitHtml(top, replies, authorOf, ctx));
  }

  modal(user: string): string | null {
    const top = this.#views.top(user);
    return top === undefined ? null : this.#render(top.id, (ctx) => modalHtml(top, ctx));
  }

  home(user: string): string | null {
    const home = this.#views.home(user);
    return home === undefined ? null : this.#render(home.id, (ctx) => homeHtml(home, ctx));
  }

  /** Everything a page shows when it connects (or switches person). */
  async snapshot(user: string, clock: SandboxClockControl, completions: readonly Completion[]) {
    const conversations = this.#conversations;
    const channels = conversations.channels.filter((c) => conversations.sees(user, c));
    return {
      me: user,
      people: PEOPLE.map(({ id, name, role }) => ({ id, name, role })),
      channels: channels.map((c) => ({ id: c.id, name: c.name, app: c.dmOf !== undefined })),
      units: channels.flatMap((c) =>
        conversations
          .visible(c.id, user)
          .filter((m) => m.threadTs === undefined)
          .map((m) => ({ channel: c.id, ts: m.ts, html: this.unit(user, c.id, m.ts) })),
      ),
      modal: this.modal(user),
      home: this.home(user),
      clock: (await clock.read()) ?? null,
      completions,
    };
  }
}
