import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody, sendJson } from '../core/http-server.js';
import { type Conversations, contentOf, isObj } from './conversations.js';
import { BOT } from './people.js';

/** Slack's rules: five answers within 30 minutes. */
const USES = 5;
const LIFETIME_MS = 30 * 60_000;

interface Issued {
  user: string;
  channel: string;
  /** The message a click came from: `replace_original` and `delete_original` act on it. */
  source?: { channel: string; ts: string };
  /** For a command: the last answer given through this URL, which `replace_original` replaces. */
  last?: string;
  uses: number;
  until: number;
}

/**
 * The response_urls the workspace hands the app with each command and click. An answer is a
 * message ephemeral to the person (Slack's default) or `in_channel`; `replace_original` replaces
 * the message clicked (or, for a command, the previous answer), `delete_original` removes it.
 */
export class ResponseUrls {
  readonly #issued = new Map<string, Issued>();
  readonly #conversations: Conversations;
  readonly #base: string;
  readonly #now: () => number;

  constructor(conversations: Conversations, base: string, now: () => number = Date.now) {
    this.#conversations = conversations;
    this.#base = base;
    this.#now = now;
  }

  issue(user: string, channel: string, source?: { channel: string; ts: string }): string {
    for (const [key, issued] of this.#issued) if (issued.until < this.#now()) this.#issued.delete(key);
    const id = randomBytes(16).toString('hex');
    this.#issued.set(id, {
      user,
      channel,
      uses: 0,
      until: this.#now() + LIFETIME_MS,
      ...(source ? { source } : {}),
    });
    return `${this.#base}/${id}`;
  }

  /** `POST /try/slack/respond/<id>`. */
  async route(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const body = await readJsonBody(req, 1024 * 1024);
    const issued = this.#issued.get(id);
    if (issued === undefined || issued.until < this.#now()) {
      sendJson(res, 404, { ok: false, error: 'expired_url' });
      return;
    }
    if (!body.ok || !isObj(body.value)) {
      sendJson(res, 400, { ok: false, error: 'invalid_payload' });
      return;
    }
    issued.uses += 1;
    if (issued.uses > USES) {
      sendJson(res, 404, { ok: false, error: 'used_url' });
      return;
    }
    this.#answer(issued, body.value);
    sendJson(res, 200, { ok: true });
  }

  #answer(issued: Issued, body: Record<string, unknown>): void {
    const conversations = this.#conversations;
    const target =
      issued.source ?? (issued.last === undefined ? undefined : { channel: issued.channel, ts: issued.last });
    if (body.delete_original === true) {
      if (target !== undefined) conversations.remove(target.channel, target.ts);
      return;
    }
    const content = contentOf(body);
    const inChannel = body.response_type === 'in_channel';
    if (body.replace_original === true && target !== undefined) {
      const replaced = conversations.update(target.channel, target.ts, content);
      if (replaced !== undefined) return;
    }
    const channel = target?.channel ?? issued.channel;
    const posted = conversations.post({
      channel,
      user: BOT.userId,
      ...content,
      ...(inChannel ? {} : { ephemeralTo: issued.user }),
    });
    if (issued.source === undefined) issued.last = posted.ts;
  }
}
