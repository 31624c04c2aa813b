import { z } from 'zod';
import { AlertViewSchema, alertView } from '../../core/alerts/index.js';
import { InputError } from '../../core/input-error.js';
import { notFoundIn } from '../../core/not-found.js';
import { defineTool } from '../../core/tool.js';
import { alertsOf } from './fields.js';

export const deleteBalanceAlert = defineTool({
  name: 'delete_balance_alert',
  title: 'Delete a balance alert',
  description: 'Stops a balance alert: it posts nothing more. Undo: create_balance_alert.',
  toolset: 'banking',
  input: z.object({ id: z.string().trim().min(1).describe('From list_balance_alerts.') }),
  output: z.object({ alert: AlertViewSchema }),
  // bankops' own database only; the alert can be created again.
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run({ id }, ctx) {
    const removed = await alertsOf(ctx).remove(id);
    if (removed === undefined)
      throw new InputError(
        'id',
        `${notFoundIn(`no alert ${id}`, ctx.store)} (the list shows the alerts and their ids)`,
      );
    return { alert: alertView(removed) };
  },
});
