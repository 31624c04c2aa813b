import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Storage } from '../store/index.js';
import type { BalanceAlert } from './store.js';

/** A new alert as a tool asks for it: its threshold already in minor units, checked. */
export interface NewAlert {
  currency: string;
  thresholdMinor: number;
  channel: string;
  /** The actor who adds it. */
  createdBy: string;
}

/**
 * The balance alerts as the alert tools see them (`ctx.alerts`): added, listed and removed in
 * bankops's database. The policy, the audit log and the checks of the input are the executor's
 * and the tools'; the periodic check is `checkAlerts`, every `intervalMs`.
 */
export class AlertBook {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    /** How often `bankops serve` checks them (`BANKOPS_ALERT_INTERVAL`). */
    readonly intervalMs: number,
  ) {}

  async add(request: NewAlert): Promise<BalanceAlert> {
    const alert: BalanceAlert = {
      id: `alr_${randomBytes(5).toString('hex')}`,
      ...request,
      createdAt: this.clock.now().toISOString(),
      level: 'unknown',
      readFailing: false,
      posts: 0,
      checkedAt: null,
    };
    await this.storage.transaction((tx) => tx.alerts.add(alert));
    return alert;
  }

  list(): Promise<BalanceAlert[]> {
    return this.storage.read((s) => s.alerts.list());
  }

  /** The alert removed, or undefined when there was none of that id. */
  remove(id: string): Promise<BalanceAlert | undefined> {
    return this.storage.transaction(async (tx) => {
      const alert = await tx.alerts.get(id);
      return alert !== undefined && (await tx.alerts.remove(id)) ? alert : undefined;
    });
  }
}
