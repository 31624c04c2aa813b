import type { AlertView } from '../core/alerts/index.js';
import { formatAmount, type Money } from '../core/money.js';

/** The alert's threshold as money: `20,000.00 EUR`. */
export const thresholdWords = (alert: Pick<AlertView, 'currency' | 'below'>): string =>
  formatAmount({ amount: alert.below, currency: alert.currency });

/** A balance read: `19,250.00 EUR`. */
export const balanceWords = (balance: Money): string => formatAmount(balance);

/** Where the balance stood at the alert's last check, in a few words (lists in Slack and the CLI). */
export function standingWords(alert: Pick<AlertView, 'level' | 'readFailing'>): string {
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
