import { z } from 'zod';
import type { CallOptions } from '../http.js';
import {
  type CardholderHashRefSchema,
  type CardholderRefSchema,
  type CreateWalletBody,
  CreateWalletBodySchema,
  KycViewSchema,
  optionalSingle,
  RfiDetailsSchema,
  single,
  type WalletHistoryQuery,
  WalletHistoryQuerySchema,
  WalletSchema,
  WalletTransactionSchema,
} from '../schemas/issuing-common.js';
import type { OnBehalfOf } from './family.js';

/** How one issuing family reaches a cardholder, a wallet's history and a KYC file. */
export interface SharedCalls<History extends z.ZodType> {
  /** Header `x-cardholder-id`. */
  onHolder: OnBehalfOf<typeof CardholderRefSchema>;
  /** Headers `x-cardholder-id`, `x-wallet-id` (and, in family B, an optional `x-card-id`). */
  onHistory: OnBehalfOf<History>;
  /** Header `x-cardholderHash-id` (and, in family A, `x-client-id` when configured). */
  onHash: OnBehalfOf<typeof CardholderHashRefSchema>;
}

/**
 * The wallet and KYC endpoints, which both issuing families answer alike below their own prefix
 * (`/svc/issuing/api/v1` for A, `/issuing/api/v1` for B) and with their own identity headers.
 */
export function walletAndKycApi<History extends z.ZodType>(
  family: 'issuingA' | 'issuingB',
  { onHolder, onHistory, onHash }: SharedCalls<History>,
) {
  return {
    /** POST {prefix}/wallet (header `x-cardholder-id`): the new wallet. */
    createWallet: (ref: z.input<typeof CardholderRefSchema>, body: CreateWalletBody, options?: CallOptions) =>
      onHolder(`${family}.createWallet`, 'POST', '/wallet', ref, single(WalletSchema), options, {
        body: [CreateWalletBodySchema, body],
      }),

    /** GET {prefix}/wallet (header `x-cardholder-id`): the cardholder's wallets. */
    listWallets: (ref: z.input<typeof CardholderRefSchema>, options?: CallOptions) =>
      onHolder(`${family}.listWallets`, 'GET', '/wallet', ref, z.array(WalletSchema), options),

    /** GET {prefix}/wallet/history?from_date&to_date&page&size (the wallet's headers). */
    walletHistory: (ref: z.input<History>, query: WalletHistoryQuery = {}, options?: CallOptions) =>
      onHistory(
        `${family}.walletHistory`,
        'GET',
        '/wallet/history',
        ref,
        z.array(WalletTransactionSchema),
        options,
        {
          query: [WalletHistoryQuerySchema, query],
        },
      ),

    /** GET {prefix}/kyc (header `x-cardholderHash-id`): the KYC view. */
    getKyc: (ref: z.input<typeof CardholderHashRefSchema>, options?: CallOptions) =>
      onHash(`${family}.getKyc`, 'GET', '/kyc', ref, single(KycViewSchema), options),

    /** GET {prefix}/kyc/rfi (header `x-cardholderHash-id`): the RFI details, `undefined` when there is no RFI. */
    getRfi: (ref: z.input<typeof CardholderHashRefSchema>, options?: CallOptions) =>
      onHash(`${family}.getRfi`, 'GET', '/kyc/rfi', ref, optionalSingle(RfiDetailsSchema), options),

    /** GET {prefix}/kyc/rfi/respond (header `x-cardholderHash-id`): the KYC view with the document link. */
    respondRfi: (ref: z.input<typeof CardholderHashRefSchema>, options?: CallOptions) =>
      onHash(`${family}.respondRfi`, 'GET', '/kyc/rfi/respond', ref, single(KycViewSchema), options),
  };
}
