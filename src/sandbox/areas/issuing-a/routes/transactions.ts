import { invalid } from '../../../errors.js';
import type { RouteDef, SandboxRequest } from '../../../types.js';
import {
  isCalendarDate,
  optionalQuery,
  pageNumberQuery,
  pageSizeQuery,
  paginate,
  requiredQuery,
} from '../../../validate.js';
import { cardById, PREFIX } from '../lookup.js';
import type { IssuingAState } from '../state.js';

/** `from_created_at` and `to_created_at`: both or neither (spec "Errors"), each a real date. */
function dateRange(req: SandboxRequest): { from: string; to: string } | undefined {
  const from = optionalQuery(req, 'from_created_at');
  const to = optionalQuery(req, 'to_created_at');
  if (from === undefined && to === undefined) return undefined;
  if (from === undefined || to === undefined) {
    throw invalid('from_created_at and to_created_at must be given together');
  }
  for (const [name, value] of [
    ['from_created_at', from],
    ['to_created_at', to],
  ] as const) {
    if (!isCalendarDate(value)) throw invalid(`query parameter ${name} must be a real date YYYY-MM-DD`);
  }
  if (from > to) throw invalid('query parameter from_created_at must not be after to_created_at');
  return { from, to };
}

/** GET /card/transaction: `data` is `{has_more, items}`, unlike the other issuing answers. */
export function transactionRoutes(state: () => IssuingAState): RouteDef[] {
  return [
    {
      operation: 'issuingA.listCardTransactions',
      method: 'GET',
      path: `${PREFIX}/card/transaction`,
      envelope: 'issuing',
      headers: 'HA',
      successCode: 200,
      handler: (req) => {
        const s = state();
        const card = cardById(s, requiredQuery(req, 'id'));
        const range = dateRange(req);
        const page = pageNumberQuery(req, 'page_num');
        const size = pageSizeQuery(req, 'page_size');
        // Newest first; seeded dates are UTC (`+00:00`), so the date part is the UTC day.
        const items = [...(s.cardTransactions.get(card.id) ?? [])].reverse().filter((t) => {
          const day = t.transaction_date.slice(0, 10);
          return range === undefined || (day >= range.from && day <= range.to);
        });
        const slice = paginate(items, page, size);
        return {
          data: { has_more: slice.hasMore, items: slice.items.map((t) => structuredClone(t)) },
          message: 'Card transactions fetched successfully',
        };
      },
    },
  ];
}
