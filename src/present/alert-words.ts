import type { BalanceAlert } from '../core/alerts/index.js';
import { formatAmount, fromMinor, type Money } from '../core/money.js';

/** The alert's threshold as money: `20,000.00 EUR`. */
export const thresholdWords = (alert: Pick<BalanceAlert, 'currency' | 'thresholdMinor'>): string =>
  formatAmount(fromMinor(alert.thresholdMinor, alert.currency));

/** A balance read: `19,250.00 EUR`. */
export const balanceWords = (balance: Money): string => formatAmount(balance);

/** Where the balance stood at the alert's last check, in a few words (lists in Slack and the CLI). */
export function standingWords(alert: Pick<BalanceAlert, 'level' | 'readFailing'>): string {
  if (alert.readFailing) return 'cannot be read';
  switch (alert.level) {
    case 'unknown':
      return 'not checked yet';
    case 'above':
      return 'at or above';
    case 'below':
      return 'below';
  }
}
