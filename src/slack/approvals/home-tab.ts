import type { App } from '@slack/bolt';
import { policyView } from '../../present/policy-view.js';
import { noAccessMessage } from '../commands/bank.js';
import { helpMessage } from '../commands/help.js';
import { type Block, LIMITS } from '../render/message.js';
import { type SlackServices, slackTools } from '../services.js';

/**
 * Events API deliveries are handled once: the event id is recorded before any listener runs, so a
 * retry Slack sends (`X-Slack-Retry-Num`, when it thinks the first was lost) is acknowledged and
 * dropped, in this process or another sharing the database. Bolt itself does not de-duplicate.
 */
export function onceMiddleware(services: SlackServices) {
  return async (args: { body: unknown; context: { retryNum?: number }; next: () => Promise<void> }) => {
    const body = args.body as { type?: unknown; event_id?: unknown };
    if (body.type === 'event_callback' && typeof body.event_id === 'string') {
      if (!services.seen.firstTime(body.event_id)) {
        services.log.info('slack: a retried event was already handled; acknowledged only', {
          eventId: body.event_id,
          retryNum: args.context.retryNum,
        });
        return;
      }
    }
    await args.next();
  };
}

/**
 * Publishes a person's App Home: `top` first (the answer to a button clicked there), then their
 * approvals (src/slack/approvals), then what they may do; within the home tab's 100 blocks.
 */
export async function publishHome(services: SlackServices, userId: string, top: Block[] = []): Promise<void> {
  const actor = await services.identities.actorFor(userId);
  const known = services.identities.isKnown(actor);
  const message = known
    ? helpMessage(
        policyView(services.executor.policy, actor, slackTools(services.registry)),
        slackTools(services.registry),
      )
    : noAccessMessage(userId);
  const budget = LIMITS.modalBlocks - top.length - message.blocks.length;
  const approvals =
    known && budget > 3 ? ((await services.approvals?.home?.(actor, userId, budget)) ?? []) : [];
  await services.call('views.publish', {
    user_id: userId,
    view: { type: 'home', blocks: [...top, ...approvals, ...message.blocks] },
  });
}

/** The App Home tab: this person's approvals and what they may do. */
export function register(app: App, services: SlackServices): void {
  app.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    await publishHome(services, event.user);
  });
}
