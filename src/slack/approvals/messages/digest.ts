import type { ApprovalView, BreakGlassReview } from '../../../core/approvals/types.js';
import type { Policy } from '../../../core/policy/schema.js';
import { approvalLines, settlementLine } from '../../../present/approval-words.js';
import {
  type Block,
  clip,
  context,
  escapeText,
  header,
  type SlackMessage,
  sections,
} from '../../render/message.js';
import { openReviewsSection } from '../break-glass.js';
import { askedBy, slackTime, slackWording } from './wording.js';

/** What one approvals channel's digest holds (each list newest first). */
export interface DigestContent {
  /** Pending now. */
  waiting: ApprovalView[];
  /** Expired in the window. */
  expired: ApprovalView[];
  /** Approved, then failed at the service, or sent and then FAILED there, in the window. */
  failed: ApprovalView[];
  /** Outcome unknown now, whenever it happened: a person must settle each. */
  unresolved: ApprovalView[];
  /** Break-glass uses whose review is still open (every approvals channel lists them). */
  reviews: BreakGlassReview[];
}

/** Lines per section; the rest is counted and left to `bankops approvals list`. */
const DIGEST_ITEMS = 10;

export const isEmptyDigest = (c: DigestContent): boolean =>
  c.waiting.length + c.expired.length + c.failed.length + c.unresolved.length + c.reviews.length === 0;

const what = (view: ApprovalView): string => clip(escapeText(approvalLines(view)[0] ?? view.tool), 160);

type Line = (view: ApprovalView) => string;

function section(title: string, views: readonly ApprovalView[], line: Line, more: string): Block[] {
  if (views.length === 0) return [];
  const shown = views.slice(0, DIGEST_ITEMS).map((view) => `• \`${view.id}\` ${line(view)}`);
  const rest = views.length - shown.length;
  const tail = rest > 0 ? [`…and ${rest} more: \`${more}\``] : [];
  return sections([`*${title} (${views.length})*`, ...shown, ...tail].join('\n'));
}

/**
 * The morning digest of one approvals channel, in one message (docs/slack.md "Reminders and the
 * morning digest"): what waits, what expired and what failed after approval in the last 24 hours,
 * and what is unresolved. At most ten lines a section.
 */
export function digestMessage(content: DigestContent, policy: Policy, day: string, at: string): SlackMessage {
  const w = slackWording(policy);
  const counts = [
    `${content.waiting.length} waiting`,
    `${content.expired.length} expired`,
    `${content.failed.length} failed after approval`,
    `${content.unresolved.length} unresolved`,
  ].join(' · ');
  const waiting: Line = (v) =>
    `${what(v)} — asked by ${askedBy(policy, v)}, ${v.approvals.length} of ${v.requiredApprovers} (role ${escapeText(v.approverRole)}), deadline ${slackTime(v.expiresAt)}`;
  const expired: Line = (v) =>
    `${what(v)} — asked by ${askedBy(policy, v)}, expired ${slackTime(v.expiresAt)}`;
  const failed: Line = (v) =>
    `${what(v)} — ${v.state === 'failed' ? `failed: ${escapeText(v.error?.message ?? 'see the approval')}` : (settlementLine(v, w) ?? 'failed')}`;
  const unresolved: Line = (v) =>
    `${what(v)} — look up request \`${escapeText(v.requestId)}\` at the service, then \`bankops approvals reconcile ${v.id}\``;
  return {
    text: `:sunrise: Approvals digest ${day}: ${counts}`,
    blocks: [
      header(`Approvals digest, ${day}`),
      context(`${counts} (expired and failed: the last 24 hours)`),
      ...section(
        ':hourglass_flowing_sand: Waiting',
        content.waiting,
        waiting,
        'bankops approvals list --state pending',
      ),
      ...section(':hourglass: Expired', content.expired, expired, 'bankops approvals list --state expired'),
      ...section(
        ':x: Failed after approval',
        content.failed,
        failed,
        'bankops approvals list --state failed',
      ),
      ...section(
        ':warning: Unresolved',
        content.unresolved,
        unresolved,
        'bankops approvals list --state unresolved',
      ),
      ...openReviewsSection(content.reviews, policy),
      context(`Posted daily at ${escapeText(at)} (BANKOPS_SLACK_DIGEST)`),
    ],
  };
}
