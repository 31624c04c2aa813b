import type { IncomingMessage, ServerResponse } from 'node:http';
import { header, readRawBody, sendJson } from '../core/http-server.js';
import type { Logger } from '../core/log.js';
import { optional } from '../core/optional.js';
import { type Content, type Conversations, contentOf, isObj, type Obj } from './conversations.js';
import { BOT, dmOf, PEOPLE, TEAM, TREASURY } from './people.js';
import { SlackRefusal } from './refusal.js';
import type { OpenView, Views } from './views.js';

/**
 * The stand-in for Slack's Web API (`SLACK_API_URL` of the app it runs): the methods bankops calls,
 * each answered as Slack answers it, acting on the workspace's memory. A call must carry the bot
 * token; a method bankops does not call is answered `unknown_method` and logged, so a new one shows.
 */

export interface WebApiDeps {
  token: string;
  conversations: Conversations;
  views: Views;
  log: Logger;
}

/** Arguments arrive form-encoded (objects as JSON strings, as @slack/web-api sends them) or as JSON. */
function parseArgs(text: string, contentType: string | undefined): Obj {
  if (contentType?.startsWith('application/json')) {
    const value: unknown = JSON.parse(text || '{}');
    return isObj(value) ? value : {};
  }
  const args: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    args[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const viewAnswer = (view: OpenView): Obj => ({
  ok: true,
  view: {
    ...view.view,
    id: view.id,
    team_id: TEAM.id,
    app_id: BOT.appId,
    bot_id: BOT.botId,
    state: { values: {} },
  },
});

const messageAnswer = (channel: string, ts: string, content: Content): Obj => ({
  ok: true,
  channel,
  ts,
  message: { type: 'message', user: BOT.userId, bot_id: BOT.botId, ts, ...content },
});

/** One method's answer (Slack's JSON); a refusal is `{ok: false, error}`. */
export function answerMethod(deps: WebApiDeps, method: string, args: Obj): Obj {
  const { conversations, views } = deps;
  const channelOf = (id: unknown) => {
    const channel = typeof id === 'string' ? conversations.resolve(id) : undefined;
    if (channel === undefined) throw new SlackRefusal('channel_not_found');
    return channel;
  };
  switch (method) {
    case 'auth.test':
      return { ok: true, user_id: BOT.userId, bot_id: BOT.botId, team_id: TEAM.id, user: BOT.name };
    case 'chat.postMessage': {
      const channel = channelOf(args.channel);
      const content = contentOf(args);
      if (content.text === '' && content.blocks.length === 0 && content.attachments.length === 0)
        throw new SlackRefusal('no_text');
      const threadTs = typeof args.thread_ts === 'string' ? args.thread_ts : undefined;
      if (threadTs !== undefined && conversations.get(channel.id, threadTs) === undefined)
        throw new SlackRefusal('thread_not_found');
      const posted = conversations.post({
        channel: channel.id,
        user: BOT.userId,
        ...content,
        ...optional('threadTs', threadTs),
      });
      return messageAnswer(channel.id, posted.ts, content);
    }
    case 'chat.postEphemeral': {
      const channel = channelOf(args.channel);
      const user = typeof args.user === 'string' ? args.user : '';
      if (!conversations.sees(user, channel) || !PEOPLE.some((p) => p.id === user))
        throw new SlackRefusal('user_not_in_channel');
      const posted = conversations.post({
        channel: channel.id,
        user: BOT.userId,
        ephemeralTo: user,
        ...contentOf(args),
      });
      return { ok: true, message_ts: posted.ts };
    }
    case 'chat.update': {
      const channel = channelOf(args.channel);
      const content = contentOf(args);
      const updated = conversations.update(channel.id, String(args.ts), content);
      if (updated === undefined) throw new SlackRefusal('message_not_found');
      return messageAnswer(channel.id, updated.ts, content);
    }
    case 'chat.delete': {
      const channel = channelOf(args.channel);
      if (!conversations.remove(channel.id, String(args.ts))) throw new SlackRefusal('message_not_found');
      return { ok: true, channel: channel.id, ts: args.ts };
    }
    case 'conversations.open': {
      const user = String(args.users ?? '').split(',')[0] ?? '';
      if (!PEOPLE.some((p) => p.id === user)) throw new SlackRefusal('user_not_found');
      return { ok: true, channel: { id: dmOf(user) } };
    }
    case 'usergroups.users.list':
      if (args.usergroup !== TREASURY.id) throw new SlackRefusal('no_such_subteam');
      return { ok: true, users: TREASURY.members };
    case 'views.open':
      return viewAnswer(views.open(args.trigger_id, args.view));
    case 'views.push':
      return viewAnswer(views.push(args.trigger_id, args.view));
    case 'views.update':
      return viewAnswer(views.update(args.view_id, args.external_id, args.view));
    case 'views.publish': {
      const user = String(args.user_id ?? '');
      if (!PEOPLE.some((p) => p.id === user)) throw new SlackRefusal('user_not_found');
      return viewAnswer(views.publish(user, args.view));
    }
    default:
      deps.log.warn('try: the app called a Web API method the local workspace does not know', { method });
      return { ok: false, error: 'unknown_method' };
  }
}

/** `POST /try/slack/api/<method>`: the bot token checked, the method answered. */
export async function webApiRoute(
  deps: WebApiDeps,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
): Promise<void> {
  const read = await readRawBody(req, 1024 * 1024);
  if (!read.ok) {
    if (read.reason === 'too_large') sendJson(res, 413, { ok: false, error: 'request_too_large' });
    return;
  }
  const args = parseArgs(read.body.toString('utf8'), header(req, 'content-type'));
  const bearer = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
  const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
  if (token !== deps.token) {
    sendJson(res, 200, { ok: false, error: token === undefined ? 'not_authed' : 'invalid_auth' });
    return;
  }
  try {
    sendJson(res, 200, answerMethod(deps, method, args));
  } catch (error) {
    if (!(error instanceof SlackRefusal)) throw error;
    sendJson(res, 200, { ok: false, error: error.error });
  }
}
