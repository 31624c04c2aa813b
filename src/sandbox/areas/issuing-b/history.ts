import { invalid } from '../../errors.js';
import type { SandboxRequest } from '../../types.js';
import {
  optionalQuery,
  pageNumberQuery,
  pageSizeQuery,
  paginate,
  parseDateOrDateTime,
} from '../../validate.js';
import type { Card, Transaction, Wallet } from './state.js';

const COMPLETED = new Set(['APPROVED', 'SUCCESS']);
const DAY_MS = 86_400_000;

/** A date bound; a bare `YYYY-MM-DD` upper bound covers that whole day. */
function bound(req: SandboxRequest, name: 'from_date' | 'to_date'): number | undefined {
  const raw = optionalQuery(req, name);
  if (raw === undefined) return undefined;
  const ms = parseDateOrDateTime(raw);
  if (ms === undefined) {
    throw invalid(`query parameter ${name} must be a date YYYY-MM-DD or a date-time yyyy-MM-ddTHH:mm:ss`);
  }
  return name === 'to_date' && raw.length === 10 ? ms + DAY_MS - 1 : ms;
}

/**
 * GET /wallet/history: newest first, optionally only the completed transactions of one card,
 * between `from_date` and `to_date` (both inclusive), one page of `size` items.
 */
export function walletHistory(req: SandboxRequest, wallet: Wallet, card?: Card): Transaction[] {
  const from = bound(req, 'from_date');
  const to = bound(req, 'to_date');
  if (from !== undefined && to !== undefined && from > to) {
    throw invalid('query parameter from_date must not be after to_date');
  }
  const page = pageNumberQuery(req, 'page');
  const size = pageSizeQuery(req, 'size');
  const matching = wallet.history
    .filter((t) => card === undefined || (t.card_id === card.id && COMPLETED.has(t.txn_status)))
    .filter((t) => {
      const ms = Date.parse(`${t.initiatedAt}Z`);
      return (from === undefined || ms >= from) && (to === undefined || ms <= to);
    })
    .reverse();
  return paginate(matching, page, size).items;
}
