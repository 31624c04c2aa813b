import { z } from 'zod';
import { AlertViewSchema, alertView } from '../../core/alerts/index.js';
import { defineTool } from '../../core/tool.js';
import { alertsOf, checkEvery, checkEveryField } from './fields.js';

export const listBalanceAlerts = defineTool({
  name: 'list_balance_alerts',
  title: 'List balance alerts',
  description: 'Lists the balance alerts and where each balance stood at the last check.',
  toolset: 'banking',
  input: z.object({}),
  output: z.object({ alerts: z.array(AlertViewSchema), checkEverySeconds: checkEveryField }),
  // Reads bankops' own database, not the service.
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  async run(_input, ctx) {
    const alerts = await alertsOf(ctx).list();
    return { alerts: alerts.map(alertView), checkEverySeconds: checkEvery(ctx) };
  },
});
