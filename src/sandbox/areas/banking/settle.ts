import { adjust } from './ledger.js';
import type { BankingState } from './state.js';

/** Sandbox-clock delays of the order lifecycles (the spec shows only the first state of each). */
export const CONVERSION_COMPLETES_AFTER_MS = 60_000;
export const PAYOUT_PROCESSING_AFTER_MS = 30_000;
export const PAYOUT_SETTLES_AFTER_MS = 120_000;

/**
 * Brings every conversion and payout to the state it has reached at `nowMs`. Called before each
 * banking request, so progress follows the sandbox clock (including jumps) without timers. A payout
 * settles exactly once: leaving PENDING/PROCESSING releases its frozen debit, and a failed payout
 * returns it to the available balance.
 */
export function settle(state: BankingState, nowMs: number): void {
  for (const conversion of state.conversions.values()) {
    if (
      conversion.status === 'EXECUTING' &&
      nowMs >= conversion.createdAtMs + CONVERSION_COMPLETES_AFTER_MS
    ) {
      conversion.status = 'COMPLETED';
    }
  }
  for (const payout of state.payouts.values()) {
    if (payout.status === 'COMPLETED' || payout.status === 'FAILED') continue;
    const settledAt = payout.createdAtMs + PAYOUT_SETTLES_AFTER_MS;
    if (nowMs >= settledAt) {
      const currency = payout.fundingCurrency;
      if (payout.willFail) {
        payout.status = 'FAILED';
        adjust(state, currency, { frozen: -payout.debitMinor, available: payout.debitMinor }, settledAt);
      } else {
        payout.status = 'COMPLETED';
        adjust(state, currency, { frozen: -payout.debitMinor }, settledAt);
      }
    } else if (nowMs >= payout.createdAtMs + PAYOUT_PROCESSING_AFTER_MS) {
      payout.status = 'PROCESSING';
    }
  }
}
