import { formatAmount } from '../core/money.js';
import type { PayeeHistory } from '../core/payee-facts.js';
import type { PayeeActor } from '../core/payees.js';
import { actorName } from './people.js';

/**
 * A payee's history in the words every front end shows beside a money approval: "First payment to
 * this beneficiary", "Created 8 minutes before this request by ci-agent (assistant over MCP)",
 * "Bank details for ACME GmbH changed 2 days before this request by olivia (before: ••••1234 …)",
 * "Verified by call-back by ben on 2026-11-20", "Not verified".
 */

/** `olivia via ci-agent (assistant over MCP)`, or the identity's words when it is its own person. */
export function byWords(by: PayeeActor): string {
  const identity = actorName(by.actorId);
  return by.person === by.actorId ? identity : `${by.person} via ${identity}`;
}

/** `8 minutes`, `3 hours`, `2 days` between two ISO times (`moments` under a minute). */
export function spanWords(fromIso: string, toIso: string): string {
  const ms = Math.max(0, Date.parse(toIso) - Date.parse(fromIso));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ms < 60_000) return 'moments';
  if (ms < 3_600_000) return unit(Math.floor(ms / 60_000), 'minute');
  if (ms < 172_800_000) return unit(Math.floor(ms / 3_600_000), 'hour');
  return unit(Math.floor(ms / 86_400_000), 'day');
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * The lines of a payee's history, as of `asOf` (when the approval was asked for). `payee`: its name,
 * and whether the directory holds it (a sandbox's seeded payee is held, with no change by a person).
 */
export function payeeHistoryLines(
  history: PayeeHistory,
  asOf: string,
  payee: { name?: string | undefined; known: boolean },
): string[] {
  const { name } = payee;
  const lines: string[] = [];
  const { payouts } = history;
  lines.push(
    payouts.count === 0
      ? 'First payment to this beneficiary'
      : `Paid ${payouts.count} time${payouts.count === 1 ? '' : 's'} before: ${payouts.totals.map(formatAmount).join(', ')} (first ${day(payouts.first ?? '')}, last ${day(payouts.last ?? '')})`,
  );
  const created = history.created;
  if (created === undefined) {
    lines.push(
      payee.known
        ? 'In the payee directory, with no record of who created or named it'
        : 'Not in the payee directory: bankops neither created nor named it',
    );
  } else {
    const how = created.kind === 'created' ? 'Created' : 'Named in the payee directory';
    const through = created.approvalId === undefined ? '' : ` through approval ${created.approvalId}`;
    lines.push(
      `${how} ${spanWords(created.at, asOf)} before this request by ${byWords(created.by)}${through} (${created.at})`,
    );
  }
  for (const change of history.changes) {
    const before =
      change.before === undefined
        ? ''
        : ` (before: ${[change.before.accountMasked, change.before.country, change.before.rail, change.before.id].filter(Boolean).join(', ')})`;
    lines.push(
      `Bank details for ${change.name ?? name ?? 'this payee'} changed ${spanWords(change.at, asOf)} before this request by ${byWords(change.by)}${before}`,
    );
  }
  const verified = history.verification;
  lines.push(
    verified === undefined
      ? 'Not verified'
      : `Verified by call-back by ${byWords(verified.by)} on ${day(verified.at)} (${verified.contactMasked}): "${verified.note}"`,
  );
  return lines;
}
