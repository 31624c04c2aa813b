import type { App, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import type { ApprovalView } from '../../core/approvals/types.js';
import { whatWillHappen } from '../../present/approval-words.js';
import { context, escapeText, type SlackMessage, sections } from '../render/message.js';
import type { ApprovalsInSlack } from '../seams.js';
import type { SlackServices } from '../services.js';
import { approveClicked, cancelClicked, rejectClicked } from './buttons.js';
import { ApprovalFollower } from './follow.js';
import { homeBlocks } from './home.js';
import { APPROVAL_ACTIONS, APPROVAL_VIEWS } from './ids.js';
import { ApprovalPoster, approvalChannel } from './post.js';
import { rejectReasonSubmitted } from './reject-reason.js';
import { migrateSlackApprovals } from './store.js';

/** How long to wait before posting the waiting approvals again when Slack was not reachable at start. */
const CATCH_UP_RETRY_MS = 30_000;

export interface SlackApprovals extends ApprovalsInSlack {
  /** Everything the feed holds so far is in Slack, or waiting in the outbox for a retry (tests, bench). */
  drain(): Promise<void>;
}

/** The answer to a person whose request now waits: what, where the approvers see it, how they hear back. */
function requestedMessage(view: ApprovalView, channel: string, askedIn: string): SlackMessage {
  const what = whatWillHappen(view).map((line) => `• ${escapeText(line)}`);
  const text = `:hourglass_flowing_sand: *Waiting for approval*\n${what.join('\n')}`;
  const where = channel === askedIn ? 'in this channel' : `in <#${channel}>`;
  const needs = `${view.requiredApprovers} approver${view.requiredApprovers === 1 ? '' : 's'} with role ${escapeText(view.approverRole)}`;
  return {
    text,
    blocks: [
      ...sections(text),
      context(
        `Posted for ${needs} ${where}; nothing happens before. bankops tells you by direct message how it ends. \`${view.id}\` · to withdraw it, Cancel on bankops's App Home.`,
      ),
    ],
  };
}

/**
 * Approvals in Slack (the seam `ApprovalsInSlack`): every approval, from any front end and process,
 * posted to its channel from the core's change feed and edited in place as it changes; Approve,
 * Reject (with a reason) and Cancel through the executor; the App Home's list.
 */
export function createSlackApprovals(services: SlackServices): SlackApprovals {
  migrateSlackApprovals(services.db);
  const poster = new ApprovalPoster(services);
  const follower = new ApprovalFollower(services, poster);
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  const catchUp = async (): Promise<void> => {
    try {
      const posted = await follower.catchUp();
      if (posted > 0) services.log.info('slack: posted approvals that were waiting', { count: posted });
    } catch (error) {
      services.log.warn('slack: posting the waiting approvals failed; trying again later', {
        error: error instanceof Error ? error.message : String(error),
      });
      if (!stopped) retry = setTimeout(() => void catchUp(), CATCH_UP_RETRY_MS).unref();
    }
  };

  return {
    register(app: App) {
      app.action<BlockAction<ButtonAction>>(APPROVAL_ACTIONS.approve, approveClicked(services));
      app.action<BlockAction<ButtonAction>>(APPROVAL_ACTIONS.reject, rejectClicked(services));
      app.action<BlockAction<ButtonAction>>(APPROVAL_ACTIONS.cancel, cancelClicked(services));
      app.view<ViewSubmitAction>(APPROVAL_VIEWS.rejectReason, rejectReasonSubmitted(services));
    },
    requested(approval, _requester, where) {
      const channel = approvalChannel(approval, services);
      return channel === undefined ? undefined : requestedMessage(approval, channel, where.channel);
    },
    home: (actor, _userId, budget) => homeBlocks(services, actor, budget),
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
