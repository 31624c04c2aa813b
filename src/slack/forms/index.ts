import type { App } from '@slack/bolt';
import { VIEWS } from '../ids.js';
import type { ActorContext } from '../middleware/actor.js';
import { corridorSubmitted, type FormServices, toolFormSubmitted } from './submitted.js';

/** Submissions of the forms bankops opens. */
export function register(app: App<ActorContext>, services: FormServices): void {
  app.view(VIEWS.toolForm, toolFormSubmitted(services));
  app.view(VIEWS.beneficiaryCorridor, corridorSubmitted(services));
}
