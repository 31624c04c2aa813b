/**
 * Whether `bankops serve` also serves the local Slack workspace (`/try/slack`): a rehearsal of the
 * Slack app in the browser, for a machine with no Slack workspace. Only where nothing real is at
 * stake and nobody else can reach it: no Slack credentials (the real app would be the one to try),
 * the service a bankops sandbox (anyone on this machine could otherwise approve real payouts), a
 * loopback listener, one process on its own database (SQLite, the default: replicas would each
 * keep a workspace of their own), and not turned off with `--no-try`.
 */

/** Where the workspace is served on the listener. */
export const TRY_PATH = '/try/slack';

export type LocalWorkspaceSetting = { on: true; sandboxUrl: string } | { on: false; why: string };

export interface WorkspaceConditions {
  /** `--no-try` absent. */
  wanted: boolean;
  /** `SLACK_BOT_TOKEN` set: the real Slack app runs. */
  slackConfigured: boolean;
  /** The sandbox the runtime talks to, when it talks to one (embedded, or a `bankops sandbox`). */
  sandboxUrl: string | undefined;
  /** The listener's address is loopback. */
  loopback: boolean;
  /** `BANKOPS_DATABASE_URL`: replicas share the database, and each would have a workspace of its own. */
  sharedDatabase: boolean;
}

export function localWorkspaceSetting(c: WorkspaceConditions): LocalWorkspaceSetting {
  if (!c.wanted) return { on: false, why: '--no-try' };
  if (c.slackConfigured) return { on: false, why: 'SLACK_BOT_TOKEN is set: the real Slack app runs' };
  if (c.sandboxUrl === undefined)
    return {
      on: false,
      why: 'BANKOPS_BASE_URL is a service, not a sandbox: anyone on this machine could approve real payouts',
    };
  if (!c.loopback) return { on: false, why: 'the listener is not on loopback, so others could reach it' };
  if (c.sharedDatabase)
    return {
      on: false,
      why: 'BANKOPS_DATABASE_URL is set: replicas share the approvals, and a workspace in one process would see part of them',
    };
  return { on: true, sandboxUrl: c.sandboxUrl };
}
