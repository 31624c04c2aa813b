import { randomBytes } from 'node:crypto';
import type { AuditLog } from '../audit/index.js';
import type { ServiceClient } from '../client/index.js';
import type { Clock } from '../clock.js';
import { messageOf } from '../errors.js';
import type { Logger } from '../log.js';
import { fitsMinorUnits, minorUnitsMessage, toMinor } from '../money.js';
import type { Policy } from '../policy/schema.js';
import type { Actor } from '../policy/types.js';
import type { Storage } from '../store/index.js';
import { checkAlerts, type PostAlert } from './check.js';
import { ALERT_ACTIONS, type AlertAction, refusalOf } from './policy.js';
import type { BalanceAlert } from './store.js';

export interface AlertsDeps {
  storage: Storage;
  audit: AuditLog;
  client: ServiceClient;
  /** The policy in force now (it reloads). */
  policy: () => Policy;
  /** The company whose balances are read. */
  companyCode: string;
  clock: Clock;
  /** How often the alerts are checked (`BANKOPS_ALERT_INTERVAL`). */
  intervalMs: number;
  /** Where a failed read or an alert that could not be checked is said. */
  log?: Logger;
}

/** What a person asks for: `balance EUR below 20000 [#channel]`, the amount as typed, read by the front end. */
export interface NewAlert {
  currency: string;
  amount: number;
  channel: string;
}

/** How a request about alerts ended: done, refused by the policy, or not valid (the caller's to fix). */
export type AlertResult<T> =
  | { status: 'ok'; value: T }
  | { status: 'denied'; reason: string }
  | { status: 'invalid'; message: string };

const CURRENCY = /^[A-Z]{3}$/;
const CHANNEL = /^[CG][A-Z0-9]{2,}$/;

/** Why a new alert cannot be, without asking the service; undefined when its form is right. */
function formProblem(input: NewAlert): string | undefined {
  if (!CURRENCY.test(input.currency))
    return `'${input.currency}' is not a currency code (three letters, e.g. EUR)`;
  if (!Number.isFinite(input.amount) || input.amount <= 0)
    return `the amount must be a positive number, got ${input.amount}`;
  if (!fitsMinorUnits(input.amount, input.currency))
    return `the amount ${minorUnitsMessage(input.amount, input.currency)}`;
  if (!Number.isSafeInteger(toMinor({ amount: input.amount, currency: input.currency })))
    return `the amount ${input.amount} is too large`;
  if (!CHANNEL.test(input.channel)) return `'${input.channel}' is not a Slack channel id (C… or G…)`;
  return undefined;
}

/**
 * Adding, listing and removing balance alerts: each decided by the policy and audited (a refusal
 * too), as the executor does for tools. The alert and its audit entry are written in one transaction.
 */
export class BalanceAlerts {
  constructor(private readonly deps: AlertsDeps) {}

  get intervalMs(): number {
    return this.deps.intervalMs;
  }

  /** One check of every alert (`checkAlerts`): what the scheduled job runs. */
  check(post: PostAlert): Promise<number> {
    return checkAlerts(this.deps, post);
  }

  async add(actor: Actor, input: NewAlert): Promise<AlertResult<BalanceAlert>> {
    const shown = { currency: input.currency, amount: input.amount, channel: input.channel };
    const refused = await this.#refused('add', actor, shown);
    if (refused !== undefined) return refused;
    const problem = formProblem(input) ?? (await this.#currencyProblem(actor, shown));
    if (problem !== undefined) {
      await this.#audit(actor, 'add', shown, 'invalid', problem);
      return { status: 'invalid', message: problem };
    }
    const alert: BalanceAlert = {
      id: `alr_${randomBytes(5).toString('hex')}`,
      currency: input.currency,
      thresholdMinor: toMinor({ amount: input.amount, currency: input.currency }),
      channel: input.channel,
      createdBy: actor.id,
      createdAt: this.deps.clock.now().toISOString(),
      level: 'unknown',
      readFailing: false,
      posts: 0,
      checkedAt: null,
    };
    await this.deps.storage.transaction(async (tx) => {
      await tx.alerts.add(alert);
      await this.deps.audit.appendIn(tx, this.#entry(actor, 'add', { id: alert.id, ...shown }));
    });
    return { status: 'ok', value: alert };
  }

  async list(actor: Actor): Promise<AlertResult<BalanceAlert[]>> {
    const refused = await this.#refused('list', actor, {});
    if (refused !== undefined) return refused;
    return { status: 'ok', value: await this.deps.storage.read((s) => s.alerts.list()) };
  }

  async remove(actor: Actor, id: string): Promise<AlertResult<BalanceAlert>> {
    const refused = await this.#refused('remove', actor, { id });
    if (refused !== undefined) return refused;
    const removed = await this.deps.storage.transaction(async (tx) => {
      const alert = await tx.alerts.get(id);
      if (alert === undefined || !(await tx.alerts.remove(id))) return undefined;
      await this.deps.audit.appendIn(
        tx,
        this.#entry(actor, 'remove', { id, currency: alert.currency, channel: alert.channel }),
      );
      return alert;
    });
    if (removed !== undefined) return { status: 'ok', value: removed };
    const message = `no alert ${id} (the list shows the alerts and their ids)`;
    await this.#audit(actor, 'remove', { id }, 'invalid', message);
    return { status: 'invalid', message };
  }

  /** The policy's refusal, on record; undefined when the actor may. */
  async #refused(action: AlertAction, actor: Actor, input: Record<string, unknown>) {
    const reason = refusalOf(this.deps.policy(), action, actor, input);
    if (reason === undefined) return undefined;
    await this.#audit(actor, action, input, 'deny', reason);
    return { status: 'denied' as const, reason };
  }

  /**
   * One read of the balances: the currency must be one the company holds. A read that fails is on
   * record as the add's failure, and thrown (nothing was added).
   */
  async #currencyProblem(actor: Actor, shown: Record<string, unknown> & { currency: string }) {
    const { currency } = shown;
    let balances: { currency: string }[];
    try {
      ({ balances } = await this.deps.client.accounts.balances({ companyCode: this.deps.companyCode }));
    } catch (error) {
      await this.deps.audit.append({
        ...this.#entry(actor, 'add', shown),
        event: 'failed',
        outcome: 'failed',
        error: `the balances could not be read: ${messageOf(error)}`,
      });
      throw error;
    }
    const held = balances.map((b) => b.currency);
    if (held.includes(currency)) return undefined;
    return `the account has no ${currency} balance; it holds ${held.length === 0 ? 'none' : held.join(', ')}`;
  }

  #entry(actor: Actor, action: AlertAction, input: Record<string, unknown>) {
    return {
      actor: actor.id,
      frontEnd: actor.frontEnd,
      tool: ALERT_ACTIONS[action].name,
      input,
      decision: 'allow' as const,
      event: 'executed' as const,
      outcome: 'ok' as const,
    };
  }

  async #audit(
    actor: Actor,
    action: AlertAction,
    input: Record<string, unknown>,
    decision: 'deny' | 'invalid',
    reason: string,
  ): Promise<void> {
    await this.deps.audit.append({
      actor: actor.id,
      frontEnd: actor.frontEnd,
      tool: ALERT_ACTIONS[action].name,
      input,
      decision,
      event: 'requested',
      outcome: 'failed',
      error: reason,
    });
  }
}
