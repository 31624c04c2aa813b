import { optional } from '../core/optional.js';
import { type Channel, type Conversations, contentOf, isObj, type Obj } from './conversations.js';
import { actionOf, elementAt, messagePayload, viewPayload } from './payloads.js';
import { BOT, CHANNELS, dmOf, PEOPLE, type Person, SLACKBOT, TREASURY } from './people.js';
import type { AppAnswer, AppRequests } from './requests.js';
import type { ResponseUrls } from './response-urls.js';
import type { Views } from './views.js';

/**
 * What a person does on the page, done as Slack does it: a signed request to the app (a slash
 * command, a click, a submission, a close, the App Home opened), and the app's HTTP answer applied
 * (an acknowledgement with content, a `response_action`). Each returns a problem for the page to
 * show, or nothing.
 */

export interface ActionDeps {
  conversations: Conversations;
  views: Views;
  responses: ResponseUrls;
  requests: AppRequests;
}

export type Outcome = { ok: true } | { ok: false; problem: string };

const OK: Outcome = { ok: true };
const refused = (problem: string): Outcome => ({ ok: false, problem });

/**
 * What Slack does to the text of a command whose manifest says `should_escape`: `&`, `<` and `>`
 * escaped, `#channel`, `@person` and `@group` turned into their ids.
 */
export function escapeCommandText(text: string): string {
  const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return escaped
    .replace(/(^|\s)#([a-z0-9_-]+)/g, (whole, pre: string, name: string) => {
      const channel = CHANNELS.find((c) => c.name === name);
      return channel === undefined ? whole : `${pre}<#${channel.id}|${name}>`;
    })
    .replace(/(^|\s)@([a-z0-9._-]+)/g, (whole, pre: string, handle: string) => {
      const person = PEOPLE.find((p) => p.handle === handle);
      if (person !== undefined) return `${pre}<@${person.id}|${handle}>`;
      return handle === TREASURY.handle ? `${pre}<!subteam^${TREASURY.id}|@${handle}>` : whole;
    });
}

export class WorkspaceActions {
  readonly #d: ActionDeps;

  constructor(deps: ActionDeps) {
    this.#d = deps;
  }

  #slackbot(person: Person, channel: string, text: string): void {
    this.#d.conversations.post({
      channel,
      user: SLACKBOT.userId,
      ephemeralTo: person.id,
      ...contentOf({ text }),
    });
  }

  #channelFor(person: Person, id: string): Channel | undefined {
    const channel = this.#d.conversations.resolve(id);
    return channel !== undefined && this.#d.conversations.sees(person.id, channel) ? channel : undefined;
  }

  /** `/bank …` typed in a channel or in the app's direct messages. */
  async command(person: Person, channelId: string, typed: string): Promise<Outcome> {
    const channel = this.#channelFor(person, channelId);
    if (channel === undefined) return refused('no such channel');
    const text = typed.trim();
    const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
    if (match?.[1] !== 'bank') {
      this.#slackbot(
        person,
        channel.id,
        `\`/${match?.[1] ?? ''}\` is not a valid command. In this workspace the app's command is \`/bank\` (\`/bank help\` lists what you may do).`,
      );
      return OK;
    }
    const { conversations, responses, views, requests } = this.#d;
    conversations.post({
      channel: channel.id,
      user: person.id,
      ephemeralTo: person.id,
      typed: true,
      ...contentOf({ text }),
    });
    const answer = await requests.command(
      person,
      { id: channel.id, name: channel.dmOf === undefined ? channel.name : 'directmessage' },
      escapeCommandText(match[2] ?? ''),
      { responseUrl: responses.issue(person.id, channel.id), triggerId: views.trigger(person.id) },
    );
    this.#commandAnswer(person, channel, answer);
    return OK;
  }

  /** The HTTP answer to a command: an error as Slack words it, or content shown as a message. */
  #commandAnswer(person: Person, channel: Channel, answer: AppAnswer | undefined): void {
    if (answer === undefined || answer.status !== 200) {
      const error = answer === undefined ? 'operation_timeout' : 'dispatch_failed';
      this.#slackbot(person, channel.id, `:warning: \`/bank\` failed with the error "${error}"`);
      return;
    }
    const body = typeof answer.body === 'string' ? { text: answer.body } : answer.body;
    if (!isObj(body)) return;
    const content = contentOf(body);
    if (content.text === '' && content.blocks.length === 0) return;
    const inChannel = body.response_type === 'in_channel';
    this.#d.conversations.post({
      channel: channel.id,
      user: BOT.userId,
      ...content,
      ...(inChannel ? {} : { ephemeralTo: person.id }),
    });
  }

  /** A message typed in a channel (the app listens to none: it only shows). */
  message(person: Person, channelId: string, text: string): Outcome {
    const channel = this.#channelFor(person, channelId);
    if (channel === undefined) return refused('no such channel');
    if (channel.dmOf !== undefined)
      return refused('Sending messages to this app has been turned off: type /bank …');
    const escaped = escapeCommandText(text.trim());
    if (escaped === '') return OK;
    this.#d.conversations.post({ channel: channel.id, user: person.id, ...contentOf({ text: escaped }) });
    return OK;
  }

  /** A click on a button (or a choice in a select) of a message. */
  async clickInMessage(
    person: Person,
    channelId: string,
    ts: string,
    path: string,
    option?: string,
  ): Promise<Outcome> {
    const channel = this.#channelFor(person, channelId);
    const message = channel === undefined ? undefined : this.#d.conversations.get(channel.id, ts);
    if (channel === undefined || message === undefined) return refused('that message is gone');
    if (message.ephemeralTo !== undefined && message.ephemeralTo !== person.id) return refused('not yours');
    const found = elementAt(message.blocks, message.attachments, path);
    const action = found === undefined ? undefined : actionOf(found, option);
    if (action === undefined) return refused('nothing to click there');
    const ephemeral = message.ephemeralTo !== undefined;
    const answer = await this.#d.requests.interaction(person, {
      type: 'block_actions',
      container: {
        type: 'message',
        message_ts: ts,
        channel_id: channel.id,
        is_ephemeral: ephemeral,
        ...optional('thread_ts', message.threadTs),
      },
      trigger_id: this.#d.views.trigger(person.id),
      channel: { id: channel.id, name: channel.dmOf === undefined ? channel.name : 'directmessage' },
      ...(ephemeral ? {} : { message: messagePayload(message) }),
      state: { values: {} },
      response_url: this.#d.responses.issue(person.id, channel.id, { channel: channel.id, ts }),
      actions: [action],
    });
    return this.#delivered(answer);
  }

  /** A click in a modal or on the App Home: no response_url, the view instead. */
  async clickInView(person: Person, viewId: string, path: string, option?: string): Promise<Outcome> {
    const open = this.#d.views.byId(viewId);
    if (open === undefined || open.user !== person.id) return refused('that view is gone');
    const found = elementAt(Array.isArray(open.view.blocks) ? open.view.blocks.filter(isObj) : [], [], path);
    const action = found === undefined ? undefined : actionOf(found, option);
    if (action === undefined) return refused('nothing to click there');
    const answer = await this.#d.requests.interaction(person, {
      type: 'block_actions',
      container: { type: 'view', view_id: open.id },
      trigger_id: this.#d.views.trigger(person.id),
      view: viewPayload(open),
      actions: [action],
    });
    return this.#delivered(answer);
  }

  /** A modal submitted: the values typed, then what the app answers (`response_action`). */
  async submit(person: Person, viewId: string, typed: Record<string, string>): Promise<Outcome> {
    const { views } = this.#d;
    const open = views.top(person.id);
    if (open === undefined || open.id !== viewId) return refused('that form is no longer open');
    open.typed = typed;
    const answer = await this.#d.requests.interaction(person, {
      type: 'view_submission',
      trigger_id: views.trigger(person.id),
      view: viewPayload(open),
      response_urls: [],
    });
    if (answer === undefined || answer.status !== 200)
      return refused('We had some trouble connecting. Try again?');
    const body = isObj(answer.body) ? answer.body : {};
    switch (body.response_action) {
      case 'errors':
        views.showErrors(person.id, isObj(body.errors) ? stringsOf(body.errors) : {});
        return OK;
      case 'update':
        views.replaceTop(person.id, body.view);
        return OK;
      case 'push':
        views.pushFromSubmission(person.id, body.view);
        return OK;
      case 'clear':
        views.close(person.id, true);
        return OK;
      default:
        views.close(person.id);
        return OK;
    }
  }

  /** Cancel or ×: the modal goes; the app hears of it only if it asked (`notify_on_close`). */
  async close(person: Person, viewId: string): Promise<Outcome> {
    const open = this.#d.views.top(person.id);
    if (open === undefined || open.id !== viewId) return OK;
    this.#d.views.close(person.id);
    if (open.view.notify_on_close !== true) return OK;
    return this.#delivered(
      await this.#d.requests.interaction(person, {
        type: 'view_closed',
        view: viewPayload(open),
        is_cleared: false,
      }),
    );
  }

  /** The App Home tab opened: Slack's `app_home_opened` event, with the view it shows now. */
  async openHome(person: Person): Promise<Outcome> {
    const home = this.#d.views.home(person.id);
    return this.#delivered(
      await this.#d.requests.event({
        type: 'app_home_opened',
        user: person.id,
        channel: dmOf(person.id),
        tab: 'home',
        ...optional('view', home && viewPayload(home)),
      }),
    );
  }

  #delivered(answer: AppAnswer | undefined): Outcome {
    if (answer === undefined) return refused('bankops did not answer in time');
    if (answer.status !== 200) return refused(`bankops answered HTTP ${answer.status}`);
    return OK;
  }
}

const stringsOf = (value: Obj): Record<string, string> =>
  Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
