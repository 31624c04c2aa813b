import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { messageProblems, viewProblems } from './slack-blocks.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read recorded Slack arguments field by field
type Args = Record<string, any>;

/** One Web API call the stand-in received. */
export interface ApiCall {
  method: string;
  args: Args;
  /** The bearer token it carried (or its `token` argument). */
  token: string | undefined;
  at: number;
  /** Whether Slack took it (false for an injected failure or a refusal). */
  ok: boolean;
  /** What the stand-in answered (a posted message's `ts`), once it has. */
  answer?: Args;
}

/** One answer posted to a response_url the stand-in handed out. */
export interface ResponsePost {
  id: string;
  body: Args;
  at: number;
}

export interface Failure {
  /** HTTP status to answer with (429 with `retryAfter`, 5xx); 200 with `error` is a Slack refusal. */
  status?: number;
  retryAfter?: number;
  error?: string;
}

export interface SlackApiOptions {
  /** The bot token calls must carry (a call with another is refused and reported). */
  token: string;
  /** Members of user groups, for `usergroups.users.list`. */
  groups?: Record<string, string[]>;
  /** What `apps.connections.open` answers (Socket Mode). */
  socketUrl?: () => string;
  /** The e-mail of each user, for `users.info` (`profile.email`, as with users:read.email). */
  emails?: Record<string, string>;
}

const JSON_ARGS = new Set(['blocks', 'attachments', 'view', 'metadata']);
const CHANNEL = /^[CGD][A-Z0-9]+$/;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseArgs(text: string, contentType: string | undefined): Args {
  if (contentType?.startsWith('application/json')) return JSON.parse(text || '{}') as Args;
  const args: Args = {};
  for (const [key, value] of new URLSearchParams(text)) {
    args[key] = JSON_ARGS.has(key) && /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return args;
}

/**
 * A local stand-in for the Slack Web API (`SLACK_API_URL`) and for response_urls. It records every
 * call and checks it: a known method, the bot token, a channel id where one is needed, and
 * well-formed blocks within Slack's limits (test/helpers/slack-blocks.ts). Every check that fails is
 * added to `problems`, which a test expects to stay empty. Slack failures can be injected.
 */
export class SlackApiStandIn {
  readonly calls: ApiCall[] = [];
  readonly responses: ResponsePost[] = [];
  readonly problems: string[] = [];
  #server: Server | undefined;
  #origin = '';
  #groups: Record<string, string[]>;
  #emails: Record<string, string>;
  #failures = new Map<string, Failure[]>();
  #ts = 1_700_000_000;
  #views = 0;
  readonly #options: SlackApiOptions;

  constructor(options: SlackApiOptions) {
    this.#options = options;
    this.#groups = { ...(options.groups ?? {}) };
    this.#emails = { ...(options.emails ?? {}) };
  }

  static async start(options: SlackApiOptions): Promise<SlackApiStandIn> {
    const api = new SlackApiStandIn(options);
    api.#server = createServer((req, res) => {
      void api.#handle(req, res).catch((error: unknown) => {
        api.problems.push(`stand-in failed: ${String(error)}`);
        res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => api.#server?.listen(0, '127.0.0.1', resolve));
    api.#origin = `http://127.0.0.1:${(api.#server.address() as AddressInfo).port}`;
    return api;
  }

  /** The Web API base, for SLACK_API_URL. */
  get url(): string {
    return `${this.#origin}/api/`;
  }

  /** A response_url whose answers are recorded under `id`. */
  responseUrl(id: string): string {
    return `${this.#origin}/respond/${encodeURIComponent(id)}`;
  }

  setGroups(groups: Record<string, string[]>): void {
    this.#groups = { ...groups };
  }

  /** The users' e-mails `users.info` answers from now on. */
  setEmails(emails: Record<string, string>): void {
    this.#emails = { ...emails };
  }

  /** The next call of `method` fails this way (several calls queue several failures). */
  failNext(method: string, failure: Failure): void {
    this.#failures.set(method, [...(this.#failures.get(method) ?? []), failure]);
  }

  /** Calls of `method`; only those Slack took unless `attempts` is set. */
  callsOf(method: string, attempts = false): ApiCall[] {
    return this.calls.filter((call) => call.method === method && (attempts || call.ok));
  }

  answersTo(id: string): ResponsePost[] {
    return this.responses.filter((post) => post.id === id);
  }

  /**
   * Polls until `found` returns something; fails the test with what was recorded. The default wait
   * (30 s) is long for a machine at rest and right for a busy one: a poll that finds it returns early.
   */
  async waitFor<T>(
    found: () => T | undefined | false | Promise<T | undefined | false>,
    timeoutMs = 30_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await found();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) {
        const last = <T>(list: T[]): T[] => list.slice(-10);
        throw new Error(
          `timed out; ${this.calls.length} calls, last ${last(this.calls.map((c) => c.method)).join(', ')}; ${this.responses.length} answers, last to ${last(this.responses.map((r) => r.id)).join(', ')}`,
        );
      }
      await delay(20);
    }
  }

  /** The answers to `id` once there are `n` of them. */
  answers(id: string, n = 1, timeoutMs?: number): Promise<ResponsePost[]> {
    return this.waitFor(() => {
      const posts = this.answersTo(id);
      return posts.length >= n ? posts : undefined;
    }, timeoutMs);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server?.close(() => resolve());
      this.#server?.closeAllConnections();
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.#origin).pathname;
    const text = await readBody(req);
    const contentType = req.headers['content-type'];
    if (path.startsWith('/respond/')) {
      const id = decodeURIComponent(path.slice('/respond/'.length));
      const body = JSON.parse(text) as Args;
      this.responses.push({ id, body, at: Date.now() });
      if (this.answersTo(id).length > 5) this.problems.push(`response_url ${id} used more than 5 times`);
      this.problems.push(...messageProblems(`respond(${id})`, body));
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      return;
    }
    if (!path.startsWith('/api/')) {
      this.problems.push(`request to ${path}`);
      res.writeHead(404).end();
      return;
    }
    const method = path.slice('/api/'.length);
    const args = parseArgs(text, contentType);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    const call: ApiCall = { method, args, token, at: Date.now(), ok: false };
    this.calls.push(call);
    const failure = this.#failures.get(method)?.shift();
    if (failure?.status !== undefined) {
      res.writeHead(
        failure.status,
        failure.retryAfter === undefined ? {} : { 'Retry-After': String(failure.retryAfter) },
      );
      res.end(
        JSON.stringify({ ok: false, error: failure.status === 429 ? 'ratelimited' : 'internal_error' }),
      );
      return;
    }
    const answer =
      failure?.error !== undefined ? { ok: false, error: failure.error } : this.#answer(method, args, token);
    call.ok = answer.ok === true;
    call.answer = answer;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  }

  #answer(method: string, args: Args, token: string | undefined): Args {
    const expected = method === 'apps.connections.open' ? undefined : this.#options.token;
    if (expected !== undefined && token !== expected) {
      this.problems.push(`${method}: called with the wrong token`);
      return { ok: false, error: 'invalid_auth' };
    }
    const needsChannel = method.startsWith('chat.');
    if (needsChannel && !CHANNEL.test(String(args.channel ?? ''))) {
      this.problems.push(`${method}: channel ${String(args.channel)} is not a channel id`);
      return { ok: false, error: 'channel_not_found' };
    }
    switch (method) {
      case 'chat.postMessage':
      case 'chat.update':
      case 'chat.postEphemeral': {
        this.problems.push(...messageProblems(method, args));
        this.#ts += 1;
        return {
          ok: true,
          channel: args.channel,
          ts: args.ts ?? `${this.#ts}.000100`,
          message: { text: args.text },
        };
      }
      case 'views.open':
      case 'views.update':
      case 'views.push':
      case 'views.publish': {
        this.problems.push(...viewProblems(method, args.view));
        if (method === 'views.open' && typeof args.trigger_id !== 'string')
          this.problems.push('views.open without trigger_id');
        if (method === 'views.update' && typeof args.view_id !== 'string')
          this.problems.push('views.update without view_id');
        this.#views += 1;
        return { ok: true, view: { ...args.view, id: args.view_id ?? `V${this.#views}` } };
      }
      case 'usergroups.users.list': {
        const users = this.#groups[String(args.usergroup)];
        return users === undefined ? { ok: false, error: 'no_such_subteam' } : { ok: true, users };
      }
      case 'users.info': {
        const user = String(args.user);
        const email = this.#emails[user];
        return /^U[A-Z0-9]+$/.test(user)
          ? { ok: true, user: { id: user, profile: email === undefined ? {} : { email } } }
          : { ok: false, error: 'user_not_found' };
      }
      case 'conversations.open':
        return { ok: true, channel: { id: `D${String(args.users ?? 'X').replace(/\W/g, '')}` } };
      case 'auth.test':
        return { ok: true, user_id: 'UBANKOPS', bot_id: 'BBANKOPS', team_id: 'T1' };
      case 'apps.connections.open':
        return this.#options.socketUrl === undefined
          ? { ok: false, error: 'not_allowed' }
          : { ok: true, url: this.#options.socketUrl() };
      default:
        this.problems.push(`unknown method ${method}`);
        return { ok: false, error: 'unknown_method' };
    }
  }
}
