import type { App, ViewSubmitAction } from '@slack/bolt';
import { VIEWS } from '../ids.js';
import type { SlackServices } from '../services.js';
import { corridorSubmitted, toolFormSubmitted } from './submitted.js';

/** Submissions of the forms bankops opens. */
export function register(app: App, services: SlackServices): void {
  app.view<ViewSubmitAction>(VIEWS.toolForm, toolFormSubmitted(services));
  app.view<ViewSubmitAction>(VIEWS.beneficiaryCorridor, corridorSubmitted(services));
}
