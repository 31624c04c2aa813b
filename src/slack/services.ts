import type { AuditLog } from '../core/audit/index.js';
import type { Db } from '../core/db.js';
import type { Executor } from '../core/executor.js';
import type { Logger } from '../core/log.js';
import type { PasskeyService } from '../core/passkeys/index.js';
import type { PayeeDirectory } from '../core/payees.js';
import type { Registry } from '../core/registry.js';
import type { AnyTool, ToolDefaults } from '../core/tool.js';
import type { SlackConfig } from './config.js';
import type { SlackIdentities } from './identity.js';
import type { ApprovalsInSlack } from './seams.js';
import type { AnswerStore } from './store/answers.js';
import type { CardDirectory } from './store/cards.js';
import type { SlackCall, SlackOutbox } from './store/outbox.js';
import type { SeenEvents } from './store/seen-events.js';
import type { WebhookKeys } from './store/webhook-keys.js';

/** What the listeners share: the core's executor and audit log, and the Slack front end's own stores. */
export interface SlackServices {
  config: SlackConfig;
  db: Db;
  executor: Executor;
  registry: Registry;
  audit: AuditLog;
  log: Logger;
  identities: SlackIdentities;
  answers: AnswerStore;
  cards: CardDirectory;
  /** Events API ids already handled (Slack's retries). */
  seen: SeenEvents;
  webhookKeys: WebhookKeys;
  outbox: SlackOutbox;
  /** A Web API call with the bot token (views.open must happen now, not through the outbox). */
  call: SlackCall;
  approvals: ApprovalsInSlack | undefined;
  /** The payees bankops knows (its payee directory): `/bank payout` takes the rail from there. */
  payees: PayeeDirectory | undefined;
  /** Where the service reaches `/webhooks/service` (`BANKOPS_PUBLIC_URL`). */
  publicUrl: string | undefined;
  /** The configured company, program and agent codes (subscriptions are made with them; help shows them). */
  defaults: ToolDefaults;
  /** After how long a "working…" note is shown (about a second). */
  workingAfterMs: number;
  /** People's passkeys: the links of `/bank passkey` and of Approve on step-up approvals. */
  passkeys: PasskeyService | undefined;
}

/** The tools offered in Slack: every one but those whose input is a secret a person holds. */
export const slackTools = (registry: Registry): AnyTool[] => registry.list({ noSecretInput: true });
