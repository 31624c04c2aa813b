import type { App } from '@slack/bolt';
import { VIEWS } from '../ids.js';
import type { ActorContext } from '../middleware/actor.js';
import type { SlackServices } from '../services.js';
import { corridorSubmitted, toolFormSubmitted } from './submitted.js';

/** Submissions of the forms bankops opens. */
export function register(app: App<ActorContext>, services: SlackServices): void {
  app.view(VIEWS.toolForm, toolFormSubmitted(services));
  app.view(VIEWS.beneficiaryCorridor, corridorSubmitted(services));
}
