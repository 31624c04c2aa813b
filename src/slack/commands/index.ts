import type { App } from '@slack/bolt';
import type { Registry } from '../../core/registry.js';
import type { ActorContext } from '../middleware/actor.js';
import { toolSchema } from '../schemas.js';
import type { SlackServices } from '../services.js';
import { bankCommand } from './bank.js';
import type { GrammarContext } from './short-forms.js';

/** The grammar's view of the registry: each tool's input schema, converted once. */
function grammarOf(registry: Registry): GrammarContext {
  return {
    toolNames: registry.names(),
    isSecretInput: (name) => registry.get(name)?.secretInput === true,
    schemaOf: (name) => {
      const tool = registry.get(name);
      return tool === undefined ? undefined : toolSchema(tool);
    },
  };
}

/** The one slash command, `/bank` (manifest.json), with the grammar of every tool and the short forms. */
export function register(app: App<ActorContext>, services: SlackServices): void {
  app.command('/bank', bankCommand(services, grammarOf(services.registry)));
}
