import type { AlertResult, BalanceAlert, BalanceAlerts, NewAlert } from '../../core/alerts/index.js';
import { messageOf } from '../../core/errors.js';
import type { Asker } from '../asker.js';
import { line } from '../render/message.js';
import { usageMessage } from '../render/outcome.js';
import { alertListMessage, alertWords } from './messages.js';

type Alerts = Pick<BalanceAlerts, 'add' | 'list' | 'remove' | 'intervalMs'>;

/** A refusal or a mistake, in the words the core gave. */
async function refused<T>(asker: Asker, result: AlertResult<T>): Promise<T | undefined> {
  switch (result.status) {
    case 'ok':
      return result.value;
    case 'denied':
      await asker.reply(line(`:no_entry: Not allowed: ${result.reason}.`));
      return undefined;
    case 'invalid':
      await asker.reply(usageMessage(result.message));
      return undefined;
  }
}

const minutes = (alerts: Alerts): number => Math.round((alerts.intervalMs / 60_000) * 10) / 10;

/** `/bank alert balance EUR below 20000 [#channel]`: this channel unless another is linked. */
export async function addAlert(
  alerts: Alerts,
  asker: Asker,
  request: Omit<NewAlert, 'channel'> & { channel?: string | undefined },
): Promise<void> {
  let result: AlertResult<BalanceAlert>;
  try {
    result = await alerts.add(asker.actor, { ...request, channel: request.channel ?? asker.channelId });
  } catch (error) {
    await asker.reply(line(`:x: The alert was not added: ${messageOf(error)}`));
    return;
  }
  const alert = await refused(asker, result);
  if (alert === undefined) return;
  await asker.reply(
    line(
      `:white_check_mark: Alert ${alertWords(alert)}: posted once when the balance goes below, and once when it recovers; checked every ${minutes(alerts)} min.`,
    ),
  );
}

export async function listAlerts(alerts: Alerts, asker: Asker): Promise<void> {
  const list = await refused(asker, await alerts.list(asker.actor));
  if (list !== undefined) await asker.reply(alertListMessage(list, minutes(alerts)));
}

export async function removeAlert(alerts: Alerts, asker: Asker, id: string): Promise<void> {
  const alert = await refused(asker, await alerts.remove(asker.actor, id));
  if (alert !== undefined) await asker.reply(line(`:wastebasket: Alert ${alertWords(alert)} removed.`));
}
