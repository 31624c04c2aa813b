import { invalid } from '../../../errors.js';
import type { RouteDef, SandboxContext, SandboxRequest } from '../../../types.js';
import {
  localTimestamp,
  optionalQuery,
  pageNumberQuery,
  pageSizeQuery,
  paginate,
  parseDateOrDateTime,
  parseInput,
} from '../../../validate.js';
import { WALLET_DEFAULT_LIMITS } from '../defaults.js';
import { headerCardholder, headerWallet, PREFIX } from '../lookup.js';
import { CreateWalletBody } from '../schemas.js';
import type { IssuingAState, WalletRecord } from '../state.js';

const DAY_MS = 86_400_000;
const view = (record: WalletRecord) => structuredClone(record.view);

/**
 * A history bound: `YYYY-MM-DD` or `yyyy-MM-ddTHH:mm:ss`. A bare date as `to_date` includes
 * that whole day.
 */
function bound(req: SandboxRequest, name: 'from_date' | 'to_date'): number | undefined {
  const value = optionalQuery(req, name);
  if (value === undefined) return undefined;
  const ms = parseDateOrDateTime(value);
  if (ms === undefined) throw invalid(`query parameter ${name} must be YYYY-MM-DD or yyyy-MM-ddTHH:mm:ss`);
  return name === 'to_date' && !value.includes('T') ? ms + DAY_MS - 1 : ms;
}

/** POST /wallet, GET /wallet and GET /wallet/history (header `x-cardholder-id`). */
export function walletRoutes(ctx: SandboxContext, state: () => IssuingAState): RouteDef[] {
  return [
    {
      operation: 'issuingA.createWallet',
      method: 'POST',
      path: `${PREFIX}/wallet`,
      envelope: 'issuing',
      headers: 'HA_WALLET',
      successCode: 200,
      idempotent: true,
      handler: (req) => {
        const s = state();
        const holder = headerCardholder(s, req);
        const { currency } = parseInput(CreateWalletBody, req.body);
        const record: WalletRecord = {
          cardholderId: holder.view.id,
          view: {
            id: ctx.newId('wal'),
            currency,
            amount: 0,
            holdingCurrency: currency,
            holdingAmount: 0,
            ...WALLET_DEFAULT_LIMITS,
            status: 'ACTIVE',
            createdAt: localTimestamp(ctx.clock.now()),
          },
        };
        s.wallets.set(record.view.id, record);
        s.walletHistory.set(record.view.id, []);
        ctx.events.emit({
          eventName: 'wallet_create',
          data: { walletId: record.view.id, cardholderId: holder.view.id, currency },
          agentCode: holder.agentCode,
          subagentCode: holder.subagentCode,
        });
        return { data: [view(record)], message: 'Wallet created successfully' };
      },
    },
    {
      operation: 'issuingA.listWallets',
      method: 'GET',
      path: `${PREFIX}/wallet`,
      envelope: 'issuing',
      headers: 'HA_WALLET',
      successCode: 200,
      handler: (req) => {
        const s = state();
        const holder = headerCardholder(s, req);
        const wallets = [...s.wallets.values()].filter((w) => w.cardholderId === holder.view.id);
        return { data: wallets.map(view), message: 'Wallets fetched successfully' };
      },
    },
    {
      operation: 'issuingA.walletHistory',
      method: 'GET',
      path: `${PREFIX}/wallet/history`,
      envelope: 'issuing',
      headers: 'HA_WALLET',
      requiredHeaders: ['x-wallet-id'],
      successCode: 200,
      handler: (req) => {
        const s = state();
        const holder = headerCardholder(s, req);
        const wallet = headerWallet(s, req, holder.view.id);
        const from = bound(req, 'from_date');
        const to = bound(req, 'to_date');
        if (from !== undefined && to !== undefined && from > to) {
          throw invalid('query parameter from_date must not be after to_date');
        }
        const page = pageNumberQuery(req, 'page');
        const size = pageSizeQuery(req, 'size');
        // Newest first.
        const items = [...(s.walletHistory.get(wallet.view.id) ?? [])].reverse().filter((t) => {
          const at = Date.parse(`${t.initiatedAt}Z`);
          return (from === undefined || at >= from) && (to === undefined || at <= to);
        });
        return {
          data: paginate(items, page, size).items.map((t) => ({ ...t })),
          message: 'Wallet history fetched successfully',
        };
      },
    },
  ];
}
