import type { App } from '@slack/bolt';
import type { ActorContext } from '../middleware/actor.js';
import type { SlackServices } from '../services.js';
import { askAgainClicked } from './ask-again.js';
import { approveClicked, cancelClicked, rejectClicked } from './buttons.js';
import { ApprovalFollower } from './follow.js';
import { registerHome } from './home-tab.js';
import { APPROVAL_ACTIONS, APPROVAL_VIEWS } from './ids.js';
import { ApprovalPoster } from './post.js';
import { reconcileClicked, reconcileReasonSubmitted } from './reconcile-reason.js';
import { rejectReasonSubmitted } from './reject-reason.js';

/** How long to wait before posting the waiting approvals again when Slack was not reachable at start. */
const CATCH_UP_RETRY_MS = 30_000;

/**
 * What approvals in Slack use: the executor and its feed, the approval messages, the outbox and Web API calls,
 * and the passkeys (Approve on a step-up approval answers with the approval page's link).
 */
export type ApprovalServices = Pick<
  SlackServices,
  'config' | 'approvalMessages' | 'executor' | 'registry' | 'log' | 'outbox' | 'call' | 'passkeys'
>;

export interface SlackApprovals {
  /** Approve, Reject (with its reason modal), Cancel, Sent / Not sent / Send again (unresolved), Ask again (marked not sent), and the App Home. */
  register(app: App<ActorContext>): void;
  /** Posts the approvals waiting without a message, then follows the change feed. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Everything the feed holds so far is in Slack, or waiting in the outbox for a retry (tests, bench). */
  drain(): Promise<void>;
}

/**
 * Approvals in Slack, one feature: every approval, from any front end and process, posted to its
 * channel from the core's change feed and edited in place as it changes; Approve, Reject (with a
 * reason) and Cancel through the executor; the App Home's lists. `/bank approvals` is `list.ts`,
 * the requester's answer `requested.ts`.
 */
export function createSlackApprovals(services: ApprovalServices): SlackApprovals {
  const poster = new ApprovalPoster(services);
  const follower = new ApprovalFollower(services, poster);
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  const catchUp = async (): Promise<void> => {
    try {
      const posted = await follower.catchUp();
      if (posted > 0) services.log.info('slack: posted approvals that were waiting', { count: posted });
    } catch (error) {
      services.log.warn('slack: posting the waiting approvals failed; trying again later', { error });
      if (!stopped) retry = setTimeout(() => void catchUp(), CATCH_UP_RETRY_MS).unref();
    }
  };

  return {
    register(app) {
      app.action(APPROVAL_ACTIONS.approve, approveClicked(services));
      app.action(APPROVAL_ACTIONS.reject, rejectClicked(services));
      app.action(APPROVAL_ACTIONS.cancel, cancelClicked(services));
      app.view(APPROVAL_VIEWS.rejectReason, rejectReasonSubmitted(services));
      app.action(APPROVAL_ACTIONS.reconcileSent, reconcileClicked(services, 'succeeded'));
      app.action(APPROVAL_ACTIONS.reconcileNotSent, reconcileClicked(services, 'failed'));
      app.action(APPROVAL_ACTIONS.reconcileRetry, reconcileClicked(services, 'retry'));
      app.view(APPROVAL_VIEWS.reconcileReason, reconcileReasonSubmitted(services));
      app.action(APPROVAL_ACTIONS.askAgain, askAgainClicked(services));
      registerHome(app, services);
    },
    async start() {
      stopped = false;
      await catchUp();
      follower.start();
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await follower.stop();
    },
    drain: () => follower.drain(),
  };
}
