import { z } from 'zod';
import { type CallOptions, HttpClient, type HttpMethod, type QueryValue } from '../http.js';
import { path } from '../path.js';
import {
  type AgentCodesB,
  AgentCodesBSchema,
  type AssignCardBBody,
  AssignCardBBodySchema,
  CardConfigurationSchema,
  CardDetailsSchema,
  CardholderBSchema,
  CardIdItemBSchema,
  CardListSchema,
  type CardRefB,
  CardRefBSchema,
  CardTokenSchema,
  type CreateCardBBody,
  CreateCardBBodySchema,
  type CreateCardholderBBody,
  CreateCardholderBBodySchema,
  IdItemBSchema,
  type ListCardsBQuery,
  ListCardsBQuerySchema,
  PinUrlSchema,
  SpendLimitSchema,
  StatusItemSchema,
  type ThreeDsBody,
  ThreeDsBodySchema,
  ThreeDsEnrollmentSchema,
  type TransferBody,
  TransferBodySchema,
  type UpdateCardConfigurationBody,
  UpdateCardConfigurationBodySchema,
  type UpdateCardholderBBody,
  UpdateCardholderBBodySchema,
  type UpdateCardStatusBody,
  UpdateCardStatusBodySchema,
  type UpdateSpendLimitBody,
  UpdateSpendLimitBodySchema,
  type WalletHistoryRefB,
  WalletHistoryRefBSchema,
} from '../schemas/issuing-b.js';
import {
  type CardholderHashRef,
  CardholderHashRefSchema,
  type CardholderRef,
  CardholderRefSchema,
  type CreateWalletBody,
  CreateWalletBodySchema,
  KycViewSchema,
  optionalSingle,
  RfiDetailsSchema,
  single,
  type WalletHistoryQuery,
  WalletHistoryQuerySchema,
  type WalletRef,
  WalletRefSchema,
  WalletSchema,
  WalletTransactionSchema,
} from '../schemas/issuing-common.js';

/** The `{version}` path parameter of family B; `v1` is the only value the spec gives. */
export const ISSUING_B_VERSION = 'v1';
const PREFIX = path`/issuing/api/${ISSUING_B_VERSION}`;

/** `data: []` answers (3DS enroll/update/unenroll, spend limit update) resolve to `undefined`. */
const EmptyDataSchema = z.array(z.unknown()).transform((): undefined => undefined);

interface Route<S extends z.ZodType> {
  operation: string;
  method: HttpMethod;
  /** Path below the family B prefix. */
  route: string;
  headers?: Readonly<Record<string, string | undefined>>;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  response: S;
}

interface CardCall<S extends z.ZodType> {
  operation: string;
  method: HttpMethod;
  route: string;
  response: S;
  /** The body's schema and value. */
  body?: readonly [z.ZodType, unknown];
}

const holderHeaders = (r: CardholderRef) => ({ 'x-cardholder-id': r.cardholderId });
const walletHeaders = (r: WalletRef) => ({ 'x-cardholder-id': r.cardholderId, 'x-wallet-id': r.walletId });
const cardHeaders = (r: CardRefB) => ({ ...walletHeaders(r), 'x-card-id': r.cardId });
const hashHeaders = (r: CardholderHashRef) => ({ 'x-cardholderHash-id': r.cardholderHashId });

/**
 * Issuing family B (spec "Issuing family B", header set HB2). Methods take the identity headers
 * first (`{cardholderId, walletId, cardId}`, `{cardholderHashId}`, `{agentCode, subagentCode}`),
 * then the body or query with the spec's field names, then `CallOptions`.
 * Return convention: a `data` array of one element resolves to that element (`createCard` →
 * `{cardId}`, `listCards` → the list wrapper); lists resolve to arrays; `data: []` resolves to
 * `undefined`, both for writes that answer `[]` (3DS, spend limit update) and for reads where an
 * empty array means "none" (`get3ds` of an unenrolled card, `getRfi` without an RFI).
 */
export function issuingBApi(http: HttpClient) {
  const send = <S extends z.ZodType>(r: Route<S>, options: CallOptions | undefined): Promise<z.infer<S>> =>
    http.call(
      {
        operation: r.operation,
        method: r.method,
        path: `${PREFIX}${r.route}`,
        headerSet: 'HB2',
        envelope: 'issuing',
        response: r.response,
        ...(r.headers === undefined ? {} : { headers: r.headers }),
        ...(r.query === undefined ? {} : { query: r.query }),
        ...(r.body === undefined ? {} : { body: r.body }),
      },
      options,
    );

  /** A card endpoint: the three identity headers and, for writes, a body checked with its schema. */
  const onCard = async <S extends z.ZodType>(
    call: CardCall<S>,
    ref: CardRefB,
    options: CallOptions | undefined,
  ): Promise<z.infer<S>> => {
    const r = HttpClient.checkRequest(call.operation, CardRefBSchema, ref);
    const body =
      call.body === undefined
        ? undefined
        : HttpClient.checkRequest(call.operation, call.body[0], call.body[1]);
    return send(
      {
        operation: call.operation,
        method: call.method,
        route: call.route,
        headers: cardHeaders(r),
        response: call.response,
        ...(body === undefined ? {} : { body }),
      },
      options,
    );
  };

  /** A cardholder-hash endpoint (cardholder read/activate, KYC). */
  const onHash = async <S extends z.ZodType>(
    operation: string,
    method: HttpMethod,
    route: string,
    ref: CardholderHashRef,
    response: S,
    options: CallOptions | undefined,
  ): Promise<z.infer<S>> => {
    const r = HttpClient.checkRequest(operation, CardholderHashRefSchema, ref);
    return send({ operation, method, route, headers: hashHeaders(r), response }, options);
  };

  return {
    /** POST /issuing/api/v1/cardholder (headers `x-agent-code`, `x-subagent-code`): the new cardholder's `{id}`. */
    createCardholder: async (codes: AgentCodesB, body: CreateCardholderBBody, options?: CallOptions) => {
      const operation = 'issuingB.createCardholder';
      const c = HttpClient.checkRequest(operation, AgentCodesBSchema, codes);
      const b = HttpClient.checkRequest(operation, CreateCardholderBBodySchema, body);
      return send(
        {
          operation,
          method: 'POST',
          route: '/cardholder',
          headers: { 'x-agent-code': c.agentCode, 'x-subagent-code': c.subagentCode },
          body: b,
          response: single(IdItemBSchema),
        },
        options,
      );
    },

    /** GET /issuing/api/v1/cardholder (header `x-cardholderHash-id`): the cardholder. */
    getCardholder: (ref: CardholderHashRef, options?: CallOptions) =>
      onHash('issuingB.getCardholder', 'GET', '/cardholder', ref, single(CardholderBSchema), options),

    /** PATCH /issuing/api/v1/cardholder (header `x-cardholderHash-id`): changes the given fields; the service's message. */
    updateCardholder: async (ref: CardholderHashRef, body: UpdateCardholderBBody, options?: CallOptions) => {
      const operation = 'issuingB.updateCardholder';
      const r = HttpClient.checkRequest(operation, CardholderHashRefSchema, ref);
      const b = HttpClient.checkRequest(operation, UpdateCardholderBBodySchema, body);
      return send(
        {
          operation,
          method: 'PATCH',
          route: '/cardholder',
          headers: hashHeaders(r),
          body: b,
          response: single(z.string()),
        },
        options,
      );
    },

    /**
     * POST /issuing/api/v1/cardholder/activate: reactivates a deactivated cardholder; `{status}`.
     * Headers, body and answer are not shown in the spec: `x-cardholderHash-id`, no body, `[{status}]`.
     */
    activateCardholder: (ref: CardholderHashRef, options?: CallOptions) =>
      onHash(
        'issuingB.activateCardholder',
        'POST',
        '/cardholder/activate',
        ref,
        single(StatusItemSchema),
        options,
      ),

    /** POST /issuing/api/v1/wallet (header `x-cardholder-id`): the new wallet. */
    createWallet: async (ref: CardholderRef, body: CreateWalletBody, options?: CallOptions) => {
      const operation = 'issuingB.createWallet';
      const r = HttpClient.checkRequest(operation, CardholderRefSchema, ref);
      const b = HttpClient.checkRequest(operation, CreateWalletBodySchema, body);
      return send(
        {
          operation,
          method: 'POST',
          route: '/wallet',
          headers: holderHeaders(r),
          body: b,
          response: single(WalletSchema),
        },
        options,
      );
    },

    /** GET /issuing/api/v1/wallet (header `x-cardholder-id`): the cardholder's wallets. */
    listWallets: async (ref: CardholderRef, options?: CallOptions) => {
      const operation = 'issuingB.listWallets';
      const r = HttpClient.checkRequest(operation, CardholderRefSchema, ref);
      return send(
        {
          operation,
          method: 'GET',
          route: '/wallet',
          headers: holderHeaders(r),
          response: z.array(WalletSchema),
        },
        options,
      );
    },

    /**
     * GET /issuing/api/v1/wallet/history?from_date&to_date&page&size (headers `x-cardholder-id`,
     * `x-wallet-id`, optional `x-card-id` for one card's completed transactions).
     */
    walletHistory: async (ref: WalletHistoryRefB, query: WalletHistoryQuery = {}, options?: CallOptions) => {
      const operation = 'issuingB.walletHistory';
      const r = HttpClient.checkRequest(operation, WalletHistoryRefBSchema, ref);
      const q = HttpClient.checkRequest(operation, WalletHistoryQuerySchema, query);
      return send(
        {
          operation,
          method: 'GET',
          route: '/wallet/history',
          headers: { ...walletHeaders(r), 'x-card-id': r.cardId },
          query: q,
          response: z.array(WalletTransactionSchema),
        },
        options,
      );
    },

    /** POST /issuing/api/v1/wallet/transfer (header `x-cardholder-id`): a peer-to-peer transfer; its `{id}`. */
    transfer: async (ref: CardholderRef, body: TransferBody, options?: CallOptions) => {
      const operation = 'issuingB.transfer';
      const r = HttpClient.checkRequest(operation, CardholderRefSchema, ref);
      const b = HttpClient.checkRequest(operation, TransferBodySchema, body);
      return send(
        {
          operation,
          method: 'POST',
          route: '/wallet/transfer',
          headers: holderHeaders(r),
          body: b,
          response: single(IdItemBSchema),
        },
        options,
      );
    },

    /** POST /issuing/api/v1/card (headers `x-cardholder-id`, `x-wallet-id`): a virtual card, active; its `{cardId}`. */
    createCard: async (ref: WalletRef, body: CreateCardBBody, options?: CallOptions) => {
      const operation = 'issuingB.createCard';
      const r = HttpClient.checkRequest(operation, WalletRefSchema, ref);
      const b = HttpClient.checkRequest(operation, CreateCardBBodySchema, body);
      return send(
        {
          operation,
          method: 'POST',
          route: '/card',
          headers: walletHeaders(r),
          body: b,
          response: single(CardIdItemBSchema),
        },
        options,
      );
    },

    /** POST /issuing/api/v1/card/assign (headers `x-cardholder-id`, `x-wallet-id`): a physical card, active; its `{cardId}`. */
    assignCard: async (ref: WalletRef, body: AssignCardBBody, options?: CallOptions) => {
      const operation = 'issuingB.assignCard';
      const r = HttpClient.checkRequest(operation, WalletRefSchema, ref);
      const b = HttpClient.checkRequest(operation, AssignCardBBodySchema, body);
      return send(
        {
          operation,
          method: 'POST',
          route: '/card/assign',
          headers: walletHeaders(r),
          body: b,
          response: single(CardIdItemBSchema),
        },
        options,
      );
    },

    /** GET /issuing/api/v1/card/list?page&size (headers `x-cardholder-id`, `x-wallet-id`): `{cards, total_count, page, total_pages}`. */
    listCards: async (ref: WalletRef, query: ListCardsBQuery = {}, options?: CallOptions) => {
      const operation = 'issuingB.listCards';
      const r = HttpClient.checkRequest(operation, WalletRefSchema, ref);
      const q = HttpClient.checkRequest(operation, ListCardsBQuerySchema, query);
      return send(
        {
          operation,
          method: 'GET',
          route: '/card/list',
          headers: walletHeaders(r),
          query: q,
          response: single(CardListSchema),
        },
        options,
      );
    },

    /** POST /issuing/api/v1/card/activate (card headers): activates an INACTIVE card; `{status}` (`ACTIVE`). */
    activateCard: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.activateCard',
          method: 'POST',
          route: '/card/activate',
          response: single(StatusItemSchema),
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/card/details (card headers): the card details (masked number). */
    getCardDetails: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.getCardDetails',
          method: 'GET',
          route: '/card/details',
          response: single(CardDetailsSchema),
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/card/token (card headers): `{url}`, a secret link showing the full card. */
    getCardToken: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.getCardToken',
          method: 'GET',
          route: '/card/token',
          response: single(CardTokenSchema),
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/card/configuration (card headers): `{card_present_transaction_enabled}`. */
    getCardConfiguration: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.getCardConfiguration',
          method: 'GET',
          route: '/card/configuration',
          response: single(CardConfigurationSchema),
        },
        ref,
        options,
      ),

    /** PATCH /issuing/api/v1/card/configuration (card headers): the new `{card_present_transaction_enabled}`. */
    updateCardConfiguration: (ref: CardRefB, body: UpdateCardConfigurationBody, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.updateCardConfiguration',
          method: 'PATCH',
          route: '/card/configuration',
          response: single(CardConfigurationSchema),
          body: [UpdateCardConfigurationBodySchema, body],
        },
        ref,
        options,
      ),

    /**
     * PATCH /issuing/api/v1/card/status/update (card headers): sets the card status; `{status}`.
     * Body and answer are not shown in the spec: `{status}` and `[{status}]`.
     */
    updateCardStatus: (ref: CardRefB, body: UpdateCardStatusBody, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.updateCardStatus',
          method: 'PATCH',
          route: '/card/status/update',
          response: single(StatusItemSchema),
          body: [UpdateCardStatusBodySchema, body],
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/card/setpin (card headers): `{set_pin_url}`, the iframe to set the PIN. */
    getSetPinUrl: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.getSetPinUrl',
          method: 'GET',
          route: '/card/setpin',
          response: single(PinUrlSchema),
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/card/resetpin (card headers): `{set_pin_url}`, the iframe to reset the PIN. */
    getResetPinUrl: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.getResetPinUrl',
          method: 'GET',
          route: '/card/resetpin',
          response: single(PinUrlSchema),
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/card/changepin (card headers): `{set_pin_url}`, the iframe to change the PIN. */
    getChangePinUrl: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.getChangePinUrl',
          method: 'GET',
          route: '/card/changepin',
          response: single(PinUrlSchema),
        },
        ref,
        options,
      ),

    /** POST /issuing/api/v1/card/3DS (card headers): enrolls the card in 3D Secure. */
    enroll3ds: (ref: CardRefB, body: ThreeDsBody, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.enroll3ds',
          method: 'POST',
          route: '/card/3DS',
          response: EmptyDataSchema,
          body: [ThreeDsBodySchema, body],
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/card/3DS (card headers): `{otp_delivery_method, destination, status}`, `undefined` when not enrolled. */
    get3ds: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.get3ds',
          method: 'GET',
          route: '/card/3DS',
          response: optionalSingle(ThreeDsEnrollmentSchema),
        },
        ref,
        options,
      ),

    /** PATCH /issuing/api/v1/card/3DS (card headers): changes the OTP delivery method. */
    update3ds: (ref: CardRefB, body: ThreeDsBody, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.update3ds',
          method: 'PATCH',
          route: '/card/3DS',
          response: EmptyDataSchema,
          body: [ThreeDsBodySchema, body],
        },
        ref,
        options,
      ),

    /** DELETE /issuing/api/v1/card/3DS (card headers): unenrolls the card from 3D Secure. */
    unenroll3ds: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.unenroll3ds',
          method: 'DELETE',
          route: '/card/3DS',
          response: EmptyDataSchema,
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/card/limit (card headers): the card's spend limit items. */
    getSpendLimits: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.getSpendLimits',
          method: 'GET',
          route: '/card/limit',
          response: z.array(SpendLimitSchema),
        },
        ref,
        options,
      ),

    /** PATCH /issuing/api/v1/card/limit (card headers): replaces the limit of one period and transaction type. */
    updateSpendLimit: (ref: CardRefB, body: UpdateSpendLimitBody, options?: CallOptions) =>
      onCard(
        {
          operation: 'issuingB.updateSpendLimit',
          method: 'PATCH',
          route: '/card/limit',
          response: EmptyDataSchema,
          body: [UpdateSpendLimitBodySchema, body],
        },
        ref,
        options,
      ),

    /** GET /issuing/api/v1/kyc (header `x-cardholderHash-id`): the KYC view. */
    getKyc: (ref: CardholderHashRef, options?: CallOptions) =>
      onHash('issuingB.getKyc', 'GET', '/kyc', ref, single(KycViewSchema), options),

    /** GET /issuing/api/v1/kyc/rfi (header `x-cardholderHash-id`): the RFI details, `undefined` when there is no RFI. */
    getRfi: (ref: CardholderHashRef, options?: CallOptions) =>
      onHash('issuingB.getRfi', 'GET', '/kyc/rfi', ref, optionalSingle(RfiDetailsSchema), options),

    /** GET /issuing/api/v1/kyc/rfi/respond (header `x-cardholderHash-id`): the KYC view with the document link. */
    respondRfi: (ref: CardholderHashRef, options?: CallOptions) =>
      onHash('issuingB.respondRfi', 'GET', '/kyc/rfi/respond', ref, single(KycViewSchema), options),
  };
}

export type IssuingBApi = ReturnType<typeof issuingBApi>;
