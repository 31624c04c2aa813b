import type { App } from '@slack/bolt';
import { policyView } from '../../../present/policy-view.js';
import { helpMessage } from '../../render/help.js';
import { type SlackServices, slackTools } from '../../services.js';
import { noAccessMessage } from '../commands/bank.js';

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

/** The App Home tab: what this person may do. */
export function register(app: App, services: SlackServices): void {
  app.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    const actor = await services.identities.actorFor(event.user);
    const message = services.identities.isKnown(actor)
      ? helpMessage(
          policyView(services.executor.policy, actor, slackTools(services.registry)),
          slackTools(services.registry),
        )
      : noAccessMessage(event.user);
    await services.call('views.publish', {
      user_id: event.user,
      view: { type: 'home', blocks: message.blocks },
    });
  });
}
