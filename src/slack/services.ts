import type { BalanceAlerts } from '../core/alerts/index.js';
import type { AuditLog } from '../core/audit/index.js';
import type { CardDirectory } from '../core/cards.js';
import type { Executor } from '../core/executor.js';
import type { Logger } from '../core/log.js';
import type { PasskeyService } from '../core/passkeys/index.js';
import type { PayeeDirectory } from '../core/payees.js';
import type { Registry } from '../core/registry.js';
import type { AnyTool, ToolDefaults } from '../core/tool.js';
import type { ApprovalMessages } from './approvals/store.js';
import type { SlackConfig } from './config.js';
import { SlackIdentities } from './identity.js';
import { AnswerStore } from './store/answers.js';
import type { SlackCall, SlackOutbox } from './store/outbox.js';
import { SeenEvents } from './store/seen-events.js';
import type { SlackStores } from './store/stores.js';

/**
 * What the Slack front end is made of: the core's executor and audit log, and the front end's own
 * stores. Built whole, once, by `buildSlackServices`, and never changed after; each feature names
 * the part it uses (`Pick<SlackServices, …>`), so what a function can reach is in its signature.
 */
export interface SlackServices {
  readonly config: SlackConfig;
  readonly executor: Executor;
  readonly registry: Registry;
  readonly audit: AuditLog;
  readonly log: Logger;
  readonly identities: SlackIdentities;
  readonly answers: AnswerStore;
  readonly cards: CardDirectory;
  /** Events API ids already handled (Slack's retries). */
  readonly seen: SeenEvents;
  readonly outbox: SlackOutbox;
  /** Which approval has which message, and the edits queued with them. */
  readonly approvalMessages: ApprovalMessages;
  /** A Web API call with the bot token (views.open must happen now, not through the outbox). */
  readonly call: SlackCall;
  /** The payees bankops knows (its payee directory): `/bank payout` takes the rail from there. */
  readonly payees: PayeeDirectory | undefined;
  /** The configured company, program and agent codes (subscriptions are made with them; help shows them). */
  readonly defaults: ToolDefaults;
  /** After how long a "working…" note is shown (about a second). */
  readonly workingAfterMs: number;
  /** People's passkeys: the links of `/bank passkey` and of Approve on step-up approvals. */
  readonly passkeys: PasskeyService | undefined;
  /** The balance alerts' check, which the Slack front end's job runs; absent where the runtime runs none. */
  readonly alerts: BalanceAlerts | undefined;
}

export interface SlackServicesOptions {
  config: SlackConfig;
  stores: SlackStores;
  executor: Executor;
  registry: Registry;
  audit: AuditLog;
  log: Logger;
  payees: PayeeDirectory | undefined;
  outbox: SlackOutbox;
  call: SlackCall;
  defaults: ToolDefaults;
  workingAfterMs: number;
  passkeys: PasskeyService | undefined;
  alerts: BalanceAlerts | undefined;
  /** How long user-group members are trusted, and how often a miss may refresh them. */
  groups: { ttlMs?: number; missRefreshMs?: number } | undefined;
}

/** The services, whole: Slack's own stores on the database, the identities on the policy in force. */
export function buildSlackServices(options: SlackServicesOptions): SlackServices {
  const { groups, stores, ...given } = options;
  const { log, executor, call } = given;
  return {
    ...given,
    identities: new SlackIdentities({
      ...groups,
      policy: () => executor.policy,
      knows: (actor) => executor.knows(actor),
      groupMembers: async (usergroup) => {
        const answer = (await call('usergroups.users.list', { usergroup })) as { users?: string[] };
        return answer.users ?? [];
      },
      // Needs users:read and users:read.email; only asked when the policy matches people by e-mail.
      emailOf: async (user) => {
        const answer = (await call('users.info', { user })) as { user?: { profile?: { email?: string } } };
        return answer.user?.profile?.email;
      },
      log,
    }),
    answers: new AnswerStore(stores.answers),
    cards: executor.cards,
    seen: new SeenEvents(stores.seenEvents),
    approvalMessages: stores.approvalMessages,
  };
}

/** The tools offered in Slack: every one but those whose input is a secret a person holds. */
export const slackTools = (registry: Registry): AnyTool[] => registry.list({ noSecretInput: true });
