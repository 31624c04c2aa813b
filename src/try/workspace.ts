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
import { APPROVALS, WORKSPACE_ACTORS } from './people.js';
import { AppRequests } from './requests.js';
import { ResponseUrls } from './response-urls.js';
import { Screens } from './screens.js';
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

export function startLocalWorkspace(options: LocalWorkspaceOptions): LocalWorkspace {
  const base = `${options.url}${TRY_PATH}`;
  // Made up for this process: only the app it runs and this workspace know them.
  const slack: WorkspaceSlack = {
    botToken: `xoxb-local-${randomBytes(12).toString('hex')}`,
    signingSecret: randomBytes(24).toString('hex'),
    apiUrl: `${base}/api/`,
    approvalsChannel: APPROVALS.id,
  };
  const streams = new PageStreams();
  // Each change goes to every page that sees it, rendered for the person it follows.
  const conversations = new Conversations((channel, ts) =>
    streams.sendEach('unit', (user) => ({ channel, ts, html: screens.unit(user, channel, ts) })),
  );
  const views = new Views((user, what) =>
    streams.send(
      what,
      { html: what === 'modal' ? screens.modal(user) : screens.home(user) },
      (u) => u === user,
    ),
  );
  const screens = new Screens(conversations, views, (kind) =>
    options.log.warn('try: the local workspace shows a part of a message it does not know as unsupported', {
      kind,
    }),
  );
  const responses = new ResponseUrls(conversations, `${base}/respond`);
  const requests = new AppRequests({
    requestUrl: `${options.url}/slack/events`,
    signingSecret: slack.signingSecret,
  });
  const clock = new SandboxClockControl(options.sandboxUrl);
  const completions = bankCompletions(options.registry);
  const handle = workspaceRoutes({
    actions: new WorkspaceActions({ conversations, views, responses, requests }),
    streams,
    snapshot: (user) => screens.snapshot(user, clock, completions),
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
      `Slack: a local workspace in the browser at ${base} (no Slack credentials: the Slack app runs against a stand-in for Slack, on the sandbox; --no-try turns it off)`,
      '  its people, for this workspace only: Olivia (operator), Amira and Tomás (approvers, @treasury), Vera (viewer); SLACK_BOT_TOKEN runs the app in a real workspace (docs/slack.md)',
    ],
    unsupported: () => [...screens.unsupported],
    close: () => streams.close(),
  };
}
