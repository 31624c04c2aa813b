import { systemActor } from '../actors.js';
import { type Balances, BalancesSchema } from '../client/schemas/accounts.js';
import type { Clock } from '../clock.js';
import type { ExecuteRequest } from '../executor.js';
import type { Logger } from '../log.js';
import { fromMinor, type Money, toMinor } from '../money.js';
import type { ExecuteResult } from '../results.js';
import type { Storage } from '../store/index.js';
import { decide, type PostKind, type Reading } from './decide.js';
import type { BalanceAlert } from './store.js';
import { type AlertView, alertView } from './view.js';

/**
 * Who reads the balances for the alerts: bankops's own actor, which the policy gives a role like
 * any other (the shipped policy: `match: { system: alerts }`). Without one, every read is refused
 * and each alert says once that its balance cannot be read.
 */
export const ALERTS_ACTOR = systemActor('alerts');

/** What a check needs: the alerts' store, the executor its read goes through, the time, the log. */
export interface CheckDeps {
  storage: Storage;
  execute(request: ExecuteRequest): Promise<ExecuteResult>;
  clock: Clock;
  /** Where a failed read or an alert that could not be checked is said. */
  log?: Logger;
}

/** One message an alert posts; `dedupeKey` is the same for the same post whoever makes it. */
export interface AlertPost {
  alert: AlertView;
  kind: PostKind;
  /** The balance read, when it was. */
  balance?: Money;
  /** Why it could not be read, when it could not. */
  error?: string;
  dedupeKey: string;
}

/** Queues a post (the Slack outbox): resolves once it is kept, so the alert's state may move on. */
export type PostAlert = (post: AlertPost) => Promise<void>;

/** The periodic check as a long-running process runs it (the Slack front end's job). */
export interface BalanceAlerts {
  /** How often (`BANKOPS_ALERT_INTERVAL`). */
  readonly intervalMs: number;
  /** One check of every alert; how many posts it queued. */
  check(post: PostAlert): Promise<number>;
}

type Read = { ok: true; balances: Balances['balances'] } | { ok: false; error: string };

/** Why a call did not answer, in the words it came with. */
function unread(result: Exclude<ExecuteResult, { status: 'ok' }>): string {
  switch (result.status) {
    case 'denied':
    case 'declined':
      return result.reason;
    case 'invalid':
      return result.message;
    case 'failed':
      return result.error.message;
    case 'pending_approval':
      return `the read waits for approval ${result.approvalId}`;
  }
}

/**
 * The one read of a check: `get_balances`, every currency's balance in one answer, through the
 * executor as `system:alerts` (the policy decides on it, the audit log records it, as for any call).
 */
async function readBalances(deps: CheckDeps): Promise<Read> {
  // What the executor throws (its database away) ends the check: the scheduler says so, and the
  // next slot checks again; nothing is posted about a failure of bankops's own.
  const result = await deps.execute({ tool: 'get_balances', input: {}, actor: ALERTS_ACTOR });
  if (result.status !== 'ok') return { ok: false, error: unread(result) };
  // The tool's output is the client's answer; read again here, where the core needs its shape.
  const answer = BalancesSchema.safeParse(result.output);
  return answer.success
    ? { ok: true, balances: answer.data.balances }
    : { ok: false, error: 'the answer of get_balances holds no balances' };
}

function readingOf(read: Read, currency: string): Reading {
  if (!read.ok) return read;
  const entry = read.balances.find((b) => b.currency === currency);
  if (entry === undefined) return { ok: false, error: `the service's answer holds no ${currency} balance` };
  return { ok: true, minor: toMinor({ amount: entry.availableBalance, currency }) };
}

/**
 * The outbox key of an alert's post: its number and what it says (`balance-alert:<id>:3:below`).
 * The same post made again (a crash between the queue and the state) has the same key, which the
 * outbox drops; a different post under the same number (the state write failed, then the next
 * check found something else) has another, and is sent.
 */
const alertPostKey = (alertId: string, number: number, kind: PostKind): string =>
  `balance-alert:${alertId}:${number}:${kind}`;

/** One alert's part of a check: its posts queued, then its state, if nobody moved it meanwhile. */
async function checkOne(
  deps: CheckDeps,
  post: PostAlert,
  alert: BalanceAlert,
  reading: Reading,
  checkedAt: string,
): Promise<number> {
  const next = decide(alert, reading);
  let posts = alert.posts;
  for (const kind of next.posts) {
    posts += 1;
    await post({
      alert: alertView(alert),
      kind,
      ...(reading.ok ? { balance: fromMinor(reading.minor, alert.currency) } : { error: reading.error }),
      dedupeKey: alertPostKey(alert.id, posts, kind),
    });
  }
  await deps.storage.transaction((tx) =>
    tx.alerts.update(alert.id, alert.posts, {
      level: next.level,
      readFailing: next.readFailing,
      posts,
      checkedAt,
    }),
  );
  return next.posts.length;
}

/**
 * One check of every alert: the balances read once (one service call, whatever the number of
 * alerts and currencies), each alert's next state decided, its posts queued, then its state
 * written if nobody moved it meanwhile. A post is queued before the state that records it, under
 * a dedupe key made of the alert, its post count and kind (`alertPostKey`). One alert that fails
 * (its post or its state could not be written) is logged and checked again next time; the others
 * go on. A failed read is logged once per check. Returns how many posts were queued.
 */
export async function checkAlerts(deps: CheckDeps, post: PostAlert): Promise<number> {
  const alerts = await deps.storage.read((s) => s.alerts.list());
  if (alerts.length === 0) return 0;
  const read = await readBalances(deps);
  if (!read.ok)
    deps.log?.warn('balance alerts: the balances could not be read; each alert says so once', {
      error: read.error,
    });
  const checkedAt = deps.clock.now().toISOString();
  let queued = 0;
  for (const alert of alerts) {
    try {
      queued += await checkOne(deps, post, alert, readingOf(read, alert.currency), checkedAt);
    } catch (error) {
      deps.log?.warn('balance alerts: one alert could not be checked; it is checked again next time', {
        alertId: alert.id,
        error,
      });
    }
  }
  return queued;
}
