import { z } from 'zod';
import { AlertViewSchema, alertView } from '../../core/alerts/index.js';
import { InputError } from '../../core/input-error.js';
import { fitsMinorUnits, minorUnitsMessage, toMinor } from '../../core/money.js';
import { defineTool } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';
import { alertsOf, checkEvery, checkEveryField } from './fields.js';

// The words of a problem are the ones `bankops alerts` and `/bank alert` have always said.
const input = z
  .object({
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, {
        error: (issue) => `'${String(issue.input)}' is not a currency code (three letters, e.g. EUR)`,
      })
      .describe('One the company holds.'),
    amount: z
      .number()
      .positive({ error: (issue) => `the amount must be a positive number, got ${String(issue.input)}` })
      .describe('Currency units.'),
    channel: z
      .string()
      .regex(/^[CG][A-Z0-9]{2,}$/, {
        error: (issue) => `'${String(issue.input)}' is not a Slack channel id (C… or G…)`,
      })
      .describe('Slack channel id.'),
  })
  .superRefine((value, ctx) => {
    const { amount, currency } = value;
    // Only once the amount and the currency are each right (the issues above say what is wrong).
    if (!/^[A-Z]{3}$/.test(currency) || !(amount > 0)) return;
    const problem = !fitsMinorUnits(amount, currency)
      ? `the amount ${minorUnitsMessage(amount, currency)}`
      : !Number.isSafeInteger(toMinor({ amount, currency }))
        ? `the amount ${amount} is too large`
        : undefined;
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: problem });
  });

export const createBalanceAlert = defineTool({
  name: 'create_balance_alert',
  title: 'Create a balance alert',
  description:
    "Posts in a Slack channel when a currency's available balance falls below an amount, and when it recovers. Undo: delete_balance_alert.",
  toolset: 'banking',
  input,
  output: z.object({ alert: AlertViewSchema, checkEverySeconds: checkEveryField }),
  // Reads the balances at the service (the currency must be one the company holds).
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  async run({ currency, amount, channel }, ctx) {
    const alerts = alertsOf(ctx);
    const { balances } = await ctx.client.accounts.balances(
      { companyCode: ctx.defaults.companyCode },
      readOptions(ctx),
    );
    const held = balances.map((b) => b.currency);
    if (!held.includes(currency))
      throw new InputError(
        'currency',
        `the account has no ${currency} balance; it holds ${held.length === 0 ? 'none' : held.join(', ')}`,
      );
    const alert = await alerts.add({
      currency,
      thresholdMinor: toMinor({ amount, currency }),
      channel,
      createdBy: ctx.actorName,
    });
    return { alert: alertView(alert), checkEverySeconds: checkEvery(ctx) };
  },
});
