import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/log.js';
import type { ActorEntry } from '../core/policy/schema.js';
import type { Registry } from '../core/registry.js';
import { WorkspaceActions } from './actions.js';
import { TRY_PATH } from './availability.js';
import { SandboxClockControl } from './clock.js';
import { bankCompletions } from './completions.js';
import { Conversations } from './conversations.js';
import { workspaceRoutes } from './http.js';
import { APPROVALS, BOT, PEOPLE, personById, SLACKBOT, TREASURY, WORKSPACE_ACTORS } from './people.js';
import type { Directory, RenderContext } from './render/html.js';
import { type Author, unitHtml } from './render/message.js';
import { homeHtml, modalHtml } from './render/view.js';
import { AppRequests } from './requests.js';
import { ResponseUrls } from './response-urls.js';
import { PageStreams } from './stream.js';
import { Views } from './views.js';

/**
 * The local Slack workspace of `bankops serve` (`/try/slack`): the stand-in for Slack that the real
 * Slack app of src/slack talks to, and the page people use it in. Its state — channels, messages,
 * threads, modals, home tabs, trigger ids and response_urls — lives in this process's memory: a
 * rehearsal keeps nothing, and a restart opens an empty workspace (the approvals, the audit log and
 * the sandbox's money stay where they always are).
 */

export interface LocalWorkspaceOptions {
  /** The listener of `bankops serve` (`http://127.0.0.1:<port>`): the app's Request URL is on it. */
  url: string;
  /** The sandbox whose clock the page moves. */
  sandboxUrl: string;
  registry: Registry;
  log: Logger;
}

/** What the Slack app is given to talk to the workspace instead of Slack. */
export interface WorkspaceSlack {
  botToken: string;
  signingSecret: string;
  apiUrl: string;
  approvalsChannel: string;
}

export interface LocalWorkspace {
  slack: WorkspaceSlack;
  /** The policy entries of its people, for the policy in force (`PolicyStore.addActors`). */
  actors: readonly ActorEntry[];
  owns(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  banner(): string[];
  /** What the page could not show so far, each shown as an "unsupported" box. */
  unsupported(): readonly string[];
  close(): void;
}

const directory = (conversations: Conversations): Directory => ({
  user: (id) => personById(id)?.name ?? (id === BOT.userId ? BOT.name : undefined),
  channel: (id) => conversations.resolve(id)?.name,
  group: (id) => (id === TREASURY.id ? TREASURY.handle : undefined),
});

const authorOf = (user: string): Author =>
  user === BOT.userId
    ? { name: BOT.name, app: true }
    : { name: user === SLACKBOT.userId ? SLACKBOT.name : (personById(user)?.name ?? user), app: false };

export function startLocalWorkspace(options: LocalWorkspaceOptions): LocalWorkspace {
  const base = `${options.url}${TRY_PATH}`;
  const slack: WorkspaceSlack = {
    botToken: `xoxb-local-${randomBytes(12).toString('hex')}`,
    signingSecret: randomBytes(24).toString('hex'),
    apiUrl: `${base}/api/`,
    approvalsChannel: APPROVALS.id,
  };
  const streams = new PageStreams();
  const unsupported = new Set<string>();
  const context = (idPrefix: string): RenderContext => {
    const ctx: RenderContext = { directory: dir, now: Date.now(), unsupported: [], idPrefix };
    return ctx;
  };
  const rendered = <T>(ctx: RenderContext, html: T): T => {
    for (const kind of ctx.unsupported) unsupported.add(kind);
    return html;
  };

  const unitFor = (user: string, channel: string, ts: string): string => {
    const where = conversations.resolve(channel);
    if (where === undefined || !conversations.sees(user, where)) return '';
    const seen = conversations.visible(channel, user);
    const top = seen.find((m) => m.ts === ts && m.threadTs === undefined);
    if (top === undefined) return '';
    const ctx = context(`${channel}-${ts}`);
    return rendered(
      ctx,
      unitHtml(
        top,
        seen.filter((m) => m.threadTs === ts),
        authorOf,
        ctx,
      ),
    );
  };
  const modalFor = (user: string): string | null => {
    const top = views.top(user);
    if (top === undefined) return null;
    const ctx = context(top.id);
    return rendered(ctx, modalHtml(top, ctx));
  };
  const homeFor = (user: string): string | null => {
    const home = views.home(user);
    if (home === undefined) return null;
    const ctx = context(home.id);
    return rendered(ctx, homeHtml(home, ctx));
  };

  const conversations = new Conversations((channel, ts) =>
    streams.sendEach('unit', (user) => ({ channel, ts, html: unitFor(user, channel, ts) })),
  );
  const dir = directory(conversations);
  const views = new Views((user, what) =>
    streams.send(what, { html: what === 'modal' ? modalFor(user) : homeFor(user) }, (u) => u === user),
  );
  const responses = new ResponseUrls(conversations, `${base}/respond`);
  const requests = new AppRequests({
    requestUrl: `${options.url}/slack/events`,
    signingSecret: slack.signingSecret,
  });
  const actions = new WorkspaceActions({ conversations, views, responses, requests, log: options.log });
  const clock = new SandboxClockControl(options.sandboxUrl);
  const completions = bankCompletions(options.registry);

  const snapshot = async (user: string) => ({
    me: user,
    people: PEOPLE.map(({ id, name, role }) => ({ id, name, role })),
    channels: conversations.channels
      .filter((c) => conversations.sees(user, c))
      .map((c) => ({ id: c.id, name: c.name, app: c.dmOf !== undefined })),
    units: conversations.channels.flatMap((c) =>
      conversations
        .visible(c.id, user)
        .filter((m) => m.threadTs === undefined)
        .map((m) => ({ channel: c.id, ts: m.ts, html: unitFor(user, c.id, m.ts) }))
        .filter((unit) => unit.html !== ''),
    ),
    modal: modalFor(user),
    home: homeFor(user),
    clock: (await clock.read()) ?? null,
    completions,
  });

  const handle = workspaceRoutes({
    log: options.log,
    actions,
    streams,
    snapshot,
    clock,
    webApi: { token: slack.botToken, conversations, views, log: options.log },
    responses,
  });

  return {
    slack,
    actors: WORKSPACE_ACTORS,
    owns: (path) => path === TRY_PATH || path.startsWith(`${TRY_PATH}/`),
    handle,
    banner: () => [
      `Slack: a local workspace in the browser at ${base} (no Slack credentials: the app runs against a stand-in for Slack, on the sandbox; --no-try turns it off)`,
      `  its people, for this workspace only: ${PEOPLE.map((p) => `${p.name.split(' ')[0]} (${p.role.split(':')[0]})`).join(', ')}; SLACK_BOT_TOKEN runs the app in a real workspace (docs/slack.md)`,
    ],
    unsupported: () => [...unsupported],
    close: () => streams.close(),
  };
}
