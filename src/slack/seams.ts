import type { App } from '@slack/bolt';
import type { ApprovalView } from '../core/approvals/types.js';
import type { Actor } from '../core/policy/types.js';
import type { Block, SlackMessage } from './render/message.js';
import type { SlackServices } from './services.js';

/**
 * Where approvals plug into the Slack app (the approval messages driven by the change feed, their
 * buttons, the App Home tab). Without it a request that waits for approval is answered with a
 * plain summary and approvers decide with the CLI; with it, whatever it registers runs alongside.
 */
export interface ApprovalsInSlack {
  /** Adds its listeners (Approve/Reject buttons, reject-reason modal, home tab). */
  register(app: App): void;
  /**
   * The answer to the person whose request now waits for approval. `where` is the channel it was
   * asked in, so the answer can say where the approvers will see it.
   */
  requested(approval: ApprovalView, requester: Actor, where: { channel: string }): SlackMessage | undefined;
  /** The approvals part of a person's App Home (pending ones to decide, their own), in at most `budget` blocks. */
  home?(actor: Actor, userId: string, budget: number): Promise<Block[]>;
  /** Starts following the change feed (after the app is ready) and stops with it. */
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

/**
 * Builds the approvals' part of the app from what the listeners share (the executor, identities,
 * the outbox with its de-duplication keys, Web API calls).
 */
export type ApprovalsFactory = (services: SlackServices) => ApprovalsInSlack;
