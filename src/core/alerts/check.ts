import { randomUUID } from 'node:crypto';
import type { Balances } from '../client/schemas/accounts.js';
import { messageOf } from '../errors.js';
import { fromMinor, type Money, toMinor } from '../money.js';
import { decide, type PostKind, type Reading } from './decide.js';
import type { AlertsDeps } from './manage.js';
import type { BalanceAlert } from './store.js';

/** Who reads the balances for the alerts, in the audit log. */
export const ALERTS_ACTOR = { id: 'system:alerts', frontEnd: 'system' } as const;

/** One message an alert posts; `dedupeKey` is the same for the same post whoever makes it. */
export interface AlertPost {
  alert: BalanceAlert;
  kind: PostKind;
  /** The balance read, when it was. */
  balance?: Money;
  /** Why it could not be read, when it could not. */
  error?: string;
  dedupeKey: string;
}

/** Queues a post (the Slack outbox): resolves once it is kept, so the alert's state may move on. */
export type PostAlert = (post: AlertPost) => Promise<void>;

type Read = { ok: true; balances: Balances['balances'] } | { ok: false; error: string };

/** The one read of a check: every currency's balance in one answer, audited as `system:alerts`. */
async function readBalances(deps: AlertsDeps): Promise<Read> {
  const requestId = randomUUID();
  const input = { companyCode: deps.companyCode };
  const started = performance.now();
  let read: Read;
  try {
    const answer = await deps.client.accounts.balances(input, { requestId });
    read = { ok: true, balances: answer.balances };
  } catch (error) {
    read = { ok: false, error: messageOf(error) };
  }
  const entry = {
    actor: ALERTS_ACTOR.id,
    frontEnd: ALERTS_ACTOR.frontEnd,
    tool: 'get_balances',
    input,
    decision: 'allow' as const,
    requestIds: [requestId],
    durationMs: performance.now() - started,
  };
  await deps.audit.record(
    read.ok
      ? { ...entry, event: 'executed', outcome: 'ok' }
      : { ...entry, event: 'failed', outcome: 'failed', error: read.error },
    { durable: false },
  );
  return read;
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
export const alertPostKey = (alertId: string, number: number, kind: PostKind): string =>
  `balance-alert:${alertId}:${number}:${kind}`;

/** One alert's part of a check: its posts queued, then its state, if nobody moved it meanwhile. */
async function checkOne(
  deps: AlertsDeps,
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
      alert,
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
export async function checkAlerts(deps: AlertsDeps, post: PostAlert): Promise<number> {
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
