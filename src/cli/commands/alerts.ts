import { parseArgs } from 'node:util';
import type { Runtime } from '../../app/runtime.js';
import type { AlertResult, BalanceAlert } from '../../core/alerts/index.js';
import { standingWords, thresholdWords } from '../../present/alert-words.js';
import { readNumber } from '../../present/args.js';
import { actorFor, withRuntime } from '../context.js';
import { EXIT, err, out, printJson, table, UsageError } from '../io.js';
import { type OutputMode, outputMode } from '../output.js';
import { checkSubcommand } from './table.js';

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
the shipped one); each is audited, refusals too.

Exit status: 0 done, 1 the service could not be read, 2 usage, invalid input or unknown id,
3 refused by the policy.
`;

const record = (alert: BalanceAlert) => ({
  id: alert.id,
  currency: alert.currency,
  below: thresholdWords(alert),
  channel: alert.channel,
  standing: standingWords(alert),
  createdBy: alert.createdBy,
  createdAt: alert.createdAt,
  checkedAt: alert.checkedAt,
});

/** A refusal or invalid input as its exit status; the value when done. */
function settled<T>(result: AlertResult<T>, mode: OutputMode): T | number {
  if (result.status === 'ok') return result.value;
  const status = result.status === 'denied' ? 'refused' : 'invalid';
  const message = result.status === 'denied' ? result.reason : result.message;
  if (mode.text) err(`bankops: ${result.status === 'denied' ? 'not allowed: ' : ''}${message}\n`);
  else printJson({ status, message });
  return result.status === 'denied' ? EXIT.denied : EXIT.invalid;
}

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

async function run(
  runtime: Runtime,
  sub: string,
  words: string[],
  as: string | undefined,
  channel: string | undefined,
  mode: OutputMode,
) {
  const actor = actorFor(runtime, as);
  const { alerts } = runtime;
  switch (sub) {
    case 'add': {
      const alert = settled(await alerts.add(actor, newAlert(words, channel)), mode);
      if (typeof alert === 'number') return alert;
      if (mode.text)
        out(
          `Added ${alert.id}: posts to ${alert.channel} when the ${alert.currency} balance goes below ${thresholdWords(alert)}, and when it recovers.\n`,
        );
      else printJson({ status: 'added', alert: record(alert) });
      return EXIT.ok;
    }
    case 'list': {
      const list = settled(await alerts.list(actor), mode);
      if (typeof list === 'number') return list;
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
      return EXIT.ok;
    }
    default: {
      const [id, ...more] = words;
      if (id === undefined || more.length > 0)
        throw new UsageError(
          'alerts remove takes one alert id (bankops alerts list shows them)',
          ALERTS_HELP,
        );
      const alert = settled(await alerts.remove(actor, id), mode);
      if (typeof alert === 'number') return alert;
      if (mode.text) out(`Removed ${alert.id} (${alert.currency} below ${thresholdWords(alert)}).\n`);
      else printJson({ status: 'removed', alert: record(alert) });
      return EXIT.ok;
    }
  }
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
