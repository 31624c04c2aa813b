import { z } from 'zod';
import { EventCatalogEntrySchema } from '../../core/client/schemas/notifications.js';
import { defineTool } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';
import { scopeFields } from './fields.js';

export const listWebhookEvents = defineTool({
  name: 'list_webhook_events',
  title: 'List subscribable events',
  description:
    'Lists the events a program can subscribe to (event_name and description, e.g. card_create, kyc_complete), for create_subscription.',
  toolset: 'notifications',
  input: z.object({ program_code: scopeFields.program_code }),
  output: z.object({ events: z.array(EventCatalogEntrySchema).describe('The subscribable events.') }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  async run(input, ctx) {
    const events = await ctx.client.notifications.listEvents(
      { program_code: input.program_code ?? ctx.defaults.programCode },
      readOptions(ctx),
    );
    return { events };
  },
});
