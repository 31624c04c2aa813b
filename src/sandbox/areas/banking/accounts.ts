import { unknownResource } from '../../errors.js';
import type { RouteDef, SandboxContext, SandboxRequest } from '../../types.js';
import { pageNumberQuery, pageSizeQuery, paginate } from '../../validate.js';
import { companyCodeQuery, currencyFilterQuery } from './fields.js';
import { balanceOf, balanceView } from './ledger.js';
import type { Account, BankingState } from './state.js';

const PREFIX = '/svc/banking/api/v1/accounts';

function listItem(a: Account) {
  return {
    accountId: a.accountId,
    externalReference: a.externalReference,
    currency: a.currency,
    paymentMethod: a.paymentMethod,
    status: a.status,
    rails: [...a.rails],
    accountNumber: a.accountNumber,
    accountNumberMasked: a.accountNumberMasked,
    iban: a.iban,
    swiftCode: a.swiftCode,
    routingNumber: a.routingNumber,
    sortCode: a.sortCode,
    bankName: a.bankName,
    bankAddress: a.bankAddress,
    accountOwnerName: a.accountOwnerName,
  };
}

function findAccount(state: BankingState, req: SandboxRequest): Account {
  const id = req.params.accountId ?? '';
  const account = state.accounts.find((a) => a.accountId === id);
  if (account === undefined) throw unknownResource('account', id);
  return account;
}

/** GET /accounts, /accounts/{id}, /accounts/balances, /accounts/{id}/balance (all HB). */
export function accountRoutes(ctx: SandboxContext, state: () => BankingState): RouteDef[] {
  const base = { envelope: 'banking', headers: 'HB', successCode: 200, method: 'GET' } as const;
  return [
    {
      ...base,
      operation: 'accounts.list',
      path: PREFIX,
      handler: (req) => {
        companyCodeQuery(ctx, req);
        const currency = currencyFilterQuery(req);
        const pageNumber = pageNumberQuery(req, 'pageNumber');
        const pageSize = pageSizeQuery(req, 'pageSize');
        const matching = state().accounts.filter((a) => currency === undefined || a.currency === currency);
        const page = paginate(matching, pageNumber, pageSize);
        return { data: { items: page.items.map(listItem), pageSize, pageNumber, total: page.total } };
      },
    },
    {
      ...base,
      operation: 'accounts.balances',
      path: `${PREFIX}/balances`,
      handler: (req) => {
        companyCodeQuery(ctx, req);
        const s = state();
        return {
          data: {
            userId: s.user.userId,
            balances: [...s.balances.values()].map((b) => balanceView(s, b)),
            errors: [],
          },
        };
      },
    },
    {
      ...base,
      operation: 'accounts.get',
      path: `${PREFIX}/:accountId`,
      handler: (req) => {
        companyCodeQuery(ctx, req);
        const s = state();
        const a = findAccount(s, req);
        const { currency: _c, accountIds: _ids, ...balance } = balanceView(s, balanceOf(s, a.currency));
        return {
          data: {
            ...listItem(a),
            companyCode: ctx.credentials.companyId,
            programCode: a.programCode,
            jurisdiction: a.jurisdiction,
            issuanceReference: a.issuanceReference,
            bankDetailsAvailable: a.bankDetailsAvailable,
            balanceAvailable: true,
            balance,
            balanceUnavailableReason: null,
            createdAt: a.createdAt,
            updatedAt: a.updatedAt,
          },
        };
      },
    },
    {
      ...base,
      operation: 'accounts.balance',
      path: `${PREFIX}/:accountId/balance`,
      handler: (req) => {
        companyCodeQuery(ctx, req);
        const s = state();
        // Body not shown by the spec: the currency-balance entry of the currency the account collects into.
        return { data: balanceView(s, balanceOf(s, findAccount(s, req).currency)) };
      },
    },
  ];
}
