import type { App } from '@slack/bolt';
import type { SlackServices } from '../services.js';
import { bankCommand } from './bank.js';
import type { GrammarContext } from './parse.js';

/** The one slash command, `/bank` (manifest.json), with the grammar of every tool and the short forms. */
export function register(app: App, services: SlackServices, grammar: GrammarContext): void {
  app.command('/bank', bankCommand(services, grammar));
}
