import { headerSets, type RawResponse, type RunningSandbox, raw, tokenFor } from './sandbox.js';

export const BANKING = '/svc/banking/api/v1';
export const COMPANY = 'CMP-DEMO';

export interface BankingCaller {
  /** A fresh HB header set (new x-request-id), for replaying one request with the same id. */
  headers(): Record<string, string>;
  get(path: string): Promise<RawResponse>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<RawResponse>;
}

/** Plain HTTP calls to the banking endpoints with a valid bearer token and HB headers. */
export async function bankingCaller(sandbox: RunningSandbox): Promise<BankingCaller> {
  const token = await tokenFor(sandbox);
  const headers = () => headerSets(sandbox).HB(token);
  return {
    headers,
    get: (path) => raw(sandbox, 'GET', `${BANKING}${path}`, { headers: headers() }),
    post: (path, body, h) => raw(sandbox, 'POST', `${BANKING}${path}`, { headers: h ?? headers(), body }),
  };
}

/** A valid request body for the spec's sample corridor (USD, LOCAL, INDIVIDUAL, bank in US) via ACH. */
export function achBeneficiary(): {
  [key: string]: unknown;
  bank: Record<string, unknown>;
  address: Record<string, unknown>;
} {
  return {
    companyCode: COMPANY,
    entityType: 'INDIVIDUAL',
    displayName: 'John Smith',
    firstName: 'John',
    lastName: 'Smith',
    currency: 'USD',
    country: 'US',
    email: 'john.smith@example.com',
    address: {
      country: 'US',
      city: 'Austin',
      streetAddress: '500 Congress Ave',
      postalCode: '78701',
      state: 'TX',
    },
    bank: {
      bankCountry: 'US',
      accountCurrency: 'USD',
      accountHolder: 'John Smith',
      bankName: 'Bank of America',
      bankAddress: '100 N Tryon St, Charlotte, NC 28255',
      accountNumber: '4402718835',
      routingCodeType: 'ach',
      routingCodeValue: '111000025',
      swiftCode: 'BOFAUS3N',
      extras: { clearingSystem: 'ACH' },
    },
    extras: { paymentMethod: 'LOCAL' },
  };
}

/** Current USD balance entry of the all-balances view. */
export async function usdBalance(
  caller: BankingCaller,
): Promise<{ availableBalance: number; frozenBalance: number; accountIds: string[] }> {
  const res = await caller.get(`/accounts/balances?companyCode=${COMPANY}`);
  if (res.status !== 200) throw new Error(`balances failed: ${JSON.stringify(res.body)}`);
  const usd = (res.body.data.balances as { currency: string }[]).find((b) => b.currency === 'USD');
  if (usd === undefined) throw new Error('no USD balance');
  return usd as unknown as { availableBalance: number; frozenBalance: number; accountIds: string[] };
}
