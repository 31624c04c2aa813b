import type { App } from '@slack/bolt';
import { ACTIONS } from '../ids.js';
import type { ActorContext } from '../middleware/actor.js';
import type { SlackServices } from '../services.js';
import { morePage, serviceNext, share } from './buttons.js';
import type { AnswerServices } from './run.js';

/** The buttons under answers: Share, More, More from the service. */
export function register(
  app: App<ActorContext>,
  services: AnswerServices & Pick<SlackServices, 'registry' | 'call'>,
): void {
  app.action(ACTIONS.share, share(services));
  app.action(ACTIONS.morePage, morePage(services));
  app.action(ACTIONS.serviceNext, serviceNext(services));
}
