import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ACTIONS } from '../ids.js';
import type { SlackServices } from '../services.js';
import { morePage, serviceNext, share } from './buttons.js';

/** The buttons under answers: Share, More, More from the service. */
export function register(app: App, services: SlackServices): void {
  app.action<BlockAction<ButtonAction>>(ACTIONS.share, share(services));
  app.action<BlockAction<ButtonAction>>(ACTIONS.morePage, morePage(services));
  app.action<BlockAction<ButtonAction>>(ACTIONS.serviceNext, serviceNext(services));
}
