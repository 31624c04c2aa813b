import type { ApprovalEvent, ApprovalView, BreakGlassReview } from '../../core/approvals/types.js';
import type { Policy } from '../../core/policy/schema.js';
import { breakGlassAlert, openReviewLine } from '../../present/break-glass.js';
import type { SlackConfig } from '../config.js';
import { type Block, clip, sections } from '../render/message.js';
import type { OutboxCall } from '../store/outbox-rows.js';
import { slackWording } from './messages/wording.js';

/**
 * Every approvals channel: the configured one and each rule's own (`approval.slackChannel`), where
 * a break-glass is posted and its open review is listed in the digest.
 */
export function approvalsChannels(
  policy: Pick<Policy, 'rules'>,
  config: Pick<SlackConfig, 'approvalsChannel'>,
): string[] {
  const channels = new Set<string>();
  if (config.approvalsChannel !== undefined) channels.add(config.approvalsChannel);
  for (const rule of policy.rules) {
    const channel = rule.approval?.slackChannel;
    if (channel !== undefined) channels.add(channel);
  }
  return [...channels];
}

/** The loud post of a break-glass to every approvals channel, once each (keyed by the event). */
export function breakGlassPosts(
  event: ApprovalEvent,
  view: ApprovalView,
  review: BreakGlassReview | undefined,
  policy: Policy,
  config: Pick<SlackConfig, 'approvalsChannel'>,
): OutboxCall[] {
  if (event.kind !== 'break_glass' || review === undefined) return [];
  const text = breakGlassAlert(view, review, slackWording(policy));
  return approvalsChannels(policy, config).map((channel) => ({
    method: 'chat.postMessage',
    args: { channel, text, blocks: sections(text), unfurl_links: false, unfurl_media: false },
    dedupeKey: `approval:${event.seq}:break-glass:${channel}`,
  }));
}

/** At most this many open reviews a digest lists. */
const DIGEST_REVIEWS = 10;

/** The digest's section of break-glass reviews still open (every approvals channel shows it). */
export function openReviewsSection(reviews: readonly BreakGlassReview[], policy: Policy): Block[] {
  if (reviews.length === 0) return [];
  const w = slackWording(policy);
  const lines = reviews.slice(0, DIGEST_REVIEWS).map((r) => `• ${clip(openReviewLine(r, w), 300)}`);
  const rest = reviews.length - lines.length;
  return sections(
    [
      `*:rotating_light: Break-glass reviews open (${reviews.length})*`,
      ...lines,
      ...(rest > 0 ? [`…and ${rest} more`] : []),
      'Close each: `bankops approvals review <id> --close --reason "…"`',
    ].join('\n'),
  );
}
