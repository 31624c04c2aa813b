import { z } from 'zod';

const code = z.string().min(1);

/** Query of GET /accounts (spec "Accounts"). Paging rules beyond "integer" are the service's. */
export const ListAccountsQuerySchema = z.object({
  companyCode: code,
  currency: code.optional(),
  pageNumber: z.number().int().optional(),
  pageSize: z.number().int().positive().optional(),
});
export type ListAccountsQuery = z.infer<typeof ListAccountsQuerySchema>;

/** Input of the by-id account endpoints: the path id plus the required `companyCode` query. */
export const AccountByIdInputSchema = z.object({ accountId: code, companyCode: code });
export type AccountByIdInput = z.infer<typeof AccountByIdInputSchema>;

export const CompanyQuerySchema = z.object({ companyCode: code });
export type CompanyQuery = z.infer<typeof CompanyQuerySchema>;

const nullableString = z.string().nullish();

/** Account list item (spec "Resources: Account"). */
export const AccountListItemSchema = z.looseObject({
  accountId: z.string(),
  externalReference: nullableString,
  currency: z.string(),
  paymentMethod: nullableString,
  status: z.string(),
  rails: z.array(z.string()),
  accountNumber: nullableString,
  accountNumberMasked: nullableString,
  iban: nullableString,
  swiftCode: nullableString,
  routingNumber: nullableString,
  sortCode: nullableString,
  bankName: nullableString,
  bankAddress: nullableString,
  /** Legal name of the holder: the beneficiary name to use when sending money to this account. */
  accountOwnerName: nullableString,
});

export const AccountListSchema = z.looseObject({
  items: z.array(AccountListItemSchema),
  pageSize: z.number(),
  pageNumber: z.number(),
  total: z.number(),
});

/** The figures of a balance, the same in the account view and the per-currency view. */
const balanceFields = {
  status: z.string(),
  availableBalance: z.number(),
  prepaidBalance: z.number(),
  marginBalance: z.number(),
  frozenBalance: z.number(),
  asOf: nullableString,
};

/** The balance object of the account detail view. */
const AccountBalanceSchema = z.looseObject(balanceFields);

/** Account detail: the list item plus the detail fields. */
export const AccountDetailSchema = AccountListItemSchema.extend({
  companyCode: z.string(),
  programCode: nullableString,
  jurisdiction: nullableString,
  issuanceReference: nullableString,
  /** Banking coordinates may be missing while this is false; clients poll until it is true. */
  bankDetailsAvailable: z.boolean(),
  balanceAvailable: z.boolean(),
  balance: AccountBalanceSchema.nullish(),
  balanceUnavailableReason: nullableString,
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** One entry of the all-balances view: one per currency. */
const CurrencyBalanceSchema = z.looseObject({
  currency: z.string(),
  /** May be empty: the currency list comes from the bank. */
  accountIds: z.array(z.string()),
  ...balanceFields,
});

export const BalancesSchema = z.looseObject({
  userId: z.string(),
  balances: z.array(CurrencyBalanceSchema),
  errors: z.array(z.unknown()),
});
export type Balances = z.infer<typeof BalancesSchema>;

/**
 * Balance of one account. The spec does not show this body; it is read as a currency-balance entry
 * with every field optional. Never add these up across accounts: several accounts of one currency
 * report the same balance.
 */
export const AccountBalanceByIdSchema = CurrencyBalanceSchema.partial();
