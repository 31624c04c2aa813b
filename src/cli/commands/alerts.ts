import { parseArgs } from 'node:util';
import type { Runtime } from '../../app/runtime.js';
import type { AlertView } from '../../core/alerts/index.js';
import { standingWords, thresholdWords } from '../../present/alert-words.js';
import { readNumber } from '../../present/args.js';
import { createBalanceAlert } from '../../tools/alerts/create-balance-alert.js';
import { deleteBalanceAlert } from '../../tools/alerts/delete-balance-alert.js';
import { listBalanceAlerts } from '../../tools/alerts/list-balance-alerts.js';
import { actorFor, withRuntime } from '../context.js';
import { EXIT, out, printJson, table, UsageError } from '../io.js';
import { type OutputMode, outputMode } from '../output.js';
import { checkSubcommand } from './table.js';
import { answerToolResult } from './tool-answer.js';

export const ALERTS_HELP = `Usage:
  bankops alerts add balance <CUR> below <amount> --channel <id> [--as <name>] [--json]
  bankops alerts list [--as <name>] [--json]
  bankops alerts remove <id> [--as <name>] [--json]

Balance alerts: bankops serve, with Slack on, reads the balances every BANKOPS_ALERT_INTERVAL
(5m by default; one read of the service whatever the number of alerts) and posts to the alert's
Slack channel once when a currency's available balance goes below the amount, and once when it is
back at or above it. A read that fails posts no alert; it is said once in the channel, and once
when reads work again. In Slack: /bank alert balance EUR below 20000 #treasury.

  add     the currency must be one the company holds (one read of its balances), the amount
          positive with at most the currency's decimals (20000, 20,000.50; JPY none), the
          channel a Slack channel id (C0123ABCD: in Slack, the channel's details show it)
  list    every alert: id, currency, amount, channel, where the balance stood at the last check
  remove  stops one alert, by its id

Adding and removing are writes and listing a read under the policy (operators and viewers under
the shipped one); each is audited, refusals too. These commands are short forms of the tools
create_balance_alert, list_balance_alerts and delete_balance_alert (bankops call, MCP, /bank).

Exit status: 0 done, 1 the service could not be read, 2 usage, invalid input or unknown id,
3 refused by the policy.
`;

const record = (alert: AlertView) => ({
  id: alert.id,
  currency: alert.currency,
  below: thresholdWords(alert),
  channel: alert.channel,
  standing: standingWords(alert),
  createdBy: alert.createdBy,
  createdAt: alert.createdAt,
  checkedAt: alert.checkedAt,
});

/** `add balance EUR below 20000`: the words after `add`. */
function newAlert(words: readonly string[], channel: string | undefined) {
  const [what, currency, below, amount, ...more] = words;
  const value = amount === undefined || amount.startsWith('-') ? undefined : readNumber(amount);
  if (what !== 'balance' || currency === undefined || below !== 'below' || more.length > 0)
    throw new UsageError(
      'alerts add reads: alerts add balance <CUR> below <amount> --channel <id>',
      ALERTS_HELP,
    );
  if (value === undefined)
    throw new UsageError(`'${amount ?? ''}' is not an amount (e.g. 20000 or 20,000.50)`, ALERTS_HELP);
  if (channel === undefined)
    throw new UsageError('alerts add needs --channel <id>, the Slack channel to post to', ALERTS_HELP);
  return { currency: currency.toUpperCase(), amount: value, channel };
}

/** Which tool a subcommand calls, with what. */
function callOf(sub: string, words: string[], channel: string | undefined) {
  switch (sub) {
    case 'add':
      return { tool: createBalanceAlert, input: newAlert(words, channel) };
    case 'list':
      return { tool: listBalanceAlerts, input: {} };
    default: {
      const [id, ...more] = words;
      if (id === undefined || more.length > 0)
        throw new UsageError(
          'alerts remove takes one alert id (bankops alerts list shows them)',
          ALERTS_HELP,
        );
      return { tool: deleteBalanceAlert, input: { id } };
    }
  }
}

/** A done call in the words of its subcommand. */
function printDone(sub: string, output: Record<string, unknown>, mode: OutputMode): void {
  if (sub === 'list') {
    printList(listBalanceAlerts.output.parse(output).alerts, mode);
    return;
  }
  const added = sub === 'add';
  const { alert } = (added ? createBalanceAlert : deleteBalanceAlert).output.parse(output);
  if (!mode.text) printJson({ status: added ? 'added' : 'removed', alert: record(alert) });
  else if (added)
    out(
      `Added ${alert.id}: posts to ${alert.channel} when the ${alert.currency} balance goes below ${thresholdWords(alert)}, and when it recovers.\n`,
    );
  else out(`Removed ${alert.id} (${alert.currency} below ${thresholdWords(alert)}).\n`);
}

function printList(list: readonly AlertView[], mode: OutputMode): void {
  if (!mode.text) printJson({ alerts: list.map(record) });
  else if (list.length === 0)
    out('No balance alerts; bankops alerts add balance <CUR> below <amount> --channel <id> adds one.\n');
  else
    out(
      `${table(
        ['Id', 'Below', 'Channel', 'Now', 'Added by'],
        list.map((a) => [a.id, thresholdWords(a), a.channel, standingWords(a), a.createdBy]),
      )}\n`,
    );
}

/**
 * A subcommand as a call of its tool through the executor (the policy, the audit log), said in
 * the words these commands have always had; an approval a policy asks for is shown as
 * `bankops call` shows it, and a failure as every command's error line.
 */
async function run(
  runtime: Runtime,
  sub: string,
  words: string[],
  as: string | undefined,
  channel: string | undefined,
  mode: OutputMode,
): Promise<number> {
  const actor = await actorFor(runtime, as);
  const { tool, input } = callOf(sub, words, channel);
  const result = await runtime.executor.execute({ tool: tool.name, input, actor });
  return answerToolResult(runtime, result, { actor, input, mode }, (output) => printDone(sub, output, mode));
}

export async function alertsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      channel: { type: 'string' },
      as: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || values.help) {
    out(ALERTS_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  checkSubcommand('alerts', sub, ALERTS_HELP);
  if (values.channel !== undefined && sub !== 'add')
    throw new UsageError(`--channel belongs to alerts add, not alerts ${sub}`, ALERTS_HELP);
  const mode = outputMode(values.json);
  return withRuntime((runtime) => run(runtime, sub, positionals, values.as, values.channel, mode));
}
