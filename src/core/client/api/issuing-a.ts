import { z } from 'zod';
import {
  type CallOptions,
  type HeaderSetName,
  HttpClient,
  type HttpMethod,
  type QueryValue,
} from '../http.js';
import {
  type ActivateCardABody,
  ActivateCardABodySchema,
  type AgentCodesA,
  AgentCodesASchema,
  type AssignCardABody,
  AssignCardABodySchema,
  CardholderASchema,
  type CardholderListA,
  CardholderListEnvelopeSchema,
  CardIdItemASchema,
  type CardRefA,
  CardRefASchema,
  CardTransactionPageASchema,
  type CardTransactionsAQuery,
  CardTransactionsAQuerySchema,
  type CreateCardABody,
  CreateCardABodySchema,
  type CreateCardholderABody,
  CreateCardholderABodySchema,
  type GetCardholderAQuery,
  GetCardholderAQuerySchema,
  IdItemSchema,
  type ListCardholdersAQuery,
  ListCardholdersAQuerySchema,
  type ResetPinABody,
  ResetPinABodySchema,
  type UpdateCardholderABody,
  UpdateCardholderABodySchema,
} from '../schemas/issuing-a.js';
import {
  type CardholderHashRef,
  CardholderHashRefSchema,
  type CardholderRef,
  CardholderRefSchema,
  type CreateWalletBody,
  CreateWalletBodySchema,
  type IssuingAck,
  IssuingAckSchema,
  KycViewSchema,
  optionalSingle,
  RfiDetailsSchema,
  single,
  toAck,
  type WalletHistoryQuery,
  WalletHistoryQuerySchema,
  type WalletRef,
  WalletRefSchema,
  WalletSchema,
  WalletTransactionSchema,
} from '../schemas/issuing-common.js';

const PREFIX = '/svc/issuing/api/v1';

interface Route<S extends z.ZodType> {
  operation: string;
  method: HttpMethod;
  /** Path below the family A prefix. */
  route: string;
  headerSet?: HeaderSetName;
  headers?: Readonly<Record<string, string | undefined>>;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  take?: 'data' | 'envelope';
  response: S;
}

/**
 * Issuing family A (spec "Issuing family A"). Methods take the identity headers and query ids
 * (`{cardholderId}`, `{cardId}`, `{cardholderHashId}`) first, then the body or query with the
 * spec's field names, then `CallOptions`. A `data` array of one element is returned as that
 * element (`undefined` for an empty array where that means "none", as for RFI details); answers
 * without `data` are returned as `{status, message, code}`.
 */
export function issuingAApi(http: HttpClient) {
  const send = <S extends z.ZodType>(r: Route<S>, options: CallOptions | undefined): Promise<z.infer<S>> =>
    http.call(
      {
        operation: r.operation,
        method: r.method,
        path: `${PREFIX}${r.route}`,
        headerSet: r.headerSet ?? 'HA',
        envelope: 'issuing',
        response: r.response,
        ...(r.headers === undefined ? {} : { headers: r.headers }),
        ...(r.query === undefined ? {} : { query: r.query }),
        ...(r.body === undefined ? {} : { body: r.body }),
        ...(r.take === undefined ? {} : { take: r.take }),
      },
      options,
    );
  const kycHeaders = (ref: CardholderHashRef) => ({
    'x-cardholderHash-id': ref.cardholderHashId,
    'x-client-id': http.config.clientId,
  });
  const kyc = async <S extends z.ZodType>(
    operation: string,
    route: string,
    ref: CardholderHashRef,
    response: S,
    options: CallOptions | undefined,
  ) => {
    const r = HttpClient.checkRequest(operation, CardholderHashRefSchema, ref);
    return send({ operation, method: 'GET', route, headers: kycHeaders(r), response }, options);
  };

  return {
    /** POST /svc/issuing/api/v1/card/cardholder (headers `agent-code`, `subagent-code`): the new cardholder's `{id}`. */
    createCardholder: async (codes: AgentCodesA, body: CreateCardholderABody, options?: CallOptions) => {
      const operation = 'issuingA.createCardholder';
      const c = HttpClient.checkRequest(operation, AgentCodesASchema, codes);
      const b = HttpClient.checkRequest(operation, CreateCardholderABodySchema, body);
      return send(
        {
          operation,
          method: 'POST',
          route: '/card/cardholder',
          headers: { 'agent-code': c.agentCode, 'subagent-code': c.subagentCode },
          body: b,
          response: single(IdItemSchema),
        },
        options,
      );
    },

    /** GET /svc/issuing/api/v1/card/cardholder?status&page_num&page_size: a page of cardholders and `totalcount`. */
    listCardholders: async (
      query: ListCardholdersAQuery = {},
      options?: CallOptions,
    ): Promise<CardholderListA> => {
      const operation = 'issuingA.listCardholders';
      const q = HttpClient.checkRequest(operation, ListCardholdersAQuerySchema, query);
      const envelope = await send(
        {
          operation,
          method: 'GET',
          route: '/card/cardholder',
          query: q,
          take: 'envelope',
          response: CardholderListEnvelopeSchema,
        },
        options,
      );
      return { totalcount: envelope.totalcount, cardholders: envelope.data };
    },

    /** GET /svc/issuing/api/v1/card/cardholder?id= or ?email=: one cardholder. */
    getCardholder: async (query: GetCardholderAQuery, options?: CallOptions) => {
      const operation = 'issuingA.getCardholder';
      const q = HttpClient.checkRequest(operation, GetCardholderAQuerySchema, query);
      return send(
        {
          operation,
          method: 'GET',
          route: '/card/cardholder',
          query: q,
          response: single(CardholderASchema),
        },
        options,
      );
    },

    /** PATCH /svc/issuing/api/v1/card/cardholder?id=: changes the supplied fields; the envelope without `data`. */
    updateCardholder: async (
      ref: CardholderRef,
      body: UpdateCardholderABody,
      options?: CallOptions,
    ): Promise<IssuingAck> => {
      const operation = 'issuingA.updateCardholder';
      const r = HttpClient.checkRequest(operation, CardholderRefSchema, ref);
      const b = HttpClient.checkRequest(operation, UpdateCardholderABodySchema, body);
      const envelope = await send(
        {
          operation,
          method: 'PATCH',
          route: '/card/cardholder',
          query: { id: r.cardholderId },
          body: b,
          take: 'envelope',
          response: IssuingAckSchema,
        },
        options,
      );
      return toAck(envelope);
    },

    /** POST /svc/issuing/api/v1/card: a virtual card, active at creation; its `{id}`. */
    createCard: async (body: CreateCardABody, options?: CallOptions) => {
      const operation = 'issuingA.createCard';
      const b = HttpClient.checkRequest(operation, CreateCardABodySchema, body);
      return send({ operation, method: 'POST', route: '/card', body: b, response: IdItemSchema }, options);
    },

    /** POST /svc/issuing/api/v1/card/assign: assigns a physical card; its `{card_id}` (activate it next). */
    assignCard: async (body: AssignCardABody, options?: CallOptions) => {
      const operation = 'issuingA.assignCard';
      const b = HttpClient.checkRequest(operation, AssignCardABodySchema, body);
      return send(
        { operation, method: 'POST', route: '/card/assign', body: b, response: single(CardIdItemASchema) },
        options,
      );
    },

    /** POST /svc/issuing/api/v1/card/activate?id=: activates an assigned physical card and sets its PIN. */
    activateCard: async (
      ref: CardRefA,
      body: ActivateCardABody,
      options?: CallOptions,
    ): Promise<IssuingAck> => {
      const operation = 'issuingA.activateCard';
      const r = HttpClient.checkRequest(operation, CardRefASchema, ref);
      const b = HttpClient.checkRequest(operation, ActivateCardABodySchema, body);
      const envelope = await send(
        {
          operation,
          method: 'POST',
          route: '/card/activate',
          query: { id: r.cardId },
          body: b,
          take: 'envelope',
          response: IssuingAckSchema,
        },
        options,
      );
      return toAck(envelope);
    },

    /** POST /svc/issuing/api/v1/card/pin?id=: resets the PIN of an assigned physical card. */
    resetPin: async (ref: CardRefA, body: ResetPinABody, options?: CallOptions): Promise<IssuingAck> => {
      const operation = 'issuingA.resetPin';
      const r = HttpClient.checkRequest(operation, CardRefASchema, ref);
      const b = HttpClient.checkRequest(operation, ResetPinABodySchema, body);
      const envelope = await send(
        {
          operation,
          method: 'POST',
          route: '/card/pin',
          query: { id: r.cardId },
          body: b,
          take: 'envelope',
          response: IssuingAckSchema,
        },
        options,
      );
      return toAck(envelope);
    },

    /** POST /svc/issuing/api/v1/wallet (header `x-cardholder-id`): the new wallet. */
    createWallet: async (ref: CardholderRef, body: CreateWalletBody, options?: CallOptions) => {
      const operation = 'issuingA.createWallet';
      const r = HttpClient.checkRequest(operation, CardholderRefSchema, ref);
      const b = HttpClient.checkRequest(operation, CreateWalletBodySchema, body);
      return send(
        {
          operation,
          method: 'POST',
          route: '/wallet',
          headerSet: 'HA_WALLET',
          headers: { 'x-cardholder-id': r.cardholderId },
          body: b,
          response: single(WalletSchema),
        },
        options,
      );
    },

    /** GET /svc/issuing/api/v1/wallet (header `x-cardholder-id`): the cardholder's wallets. */
    listWallets: async (ref: CardholderRef, options?: CallOptions) => {
      const operation = 'issuingA.listWallets';
      const r = HttpClient.checkRequest(operation, CardholderRefSchema, ref);
      return send(
        {
          operation,
          method: 'GET',
          route: '/wallet',
          headerSet: 'HA_WALLET',
          headers: { 'x-cardholder-id': r.cardholderId },
          response: z.array(WalletSchema),
        },
        options,
      );
    },

    /** GET /svc/issuing/api/v1/wallet/history?from_date&to_date&page&size (headers `x-cardholder-id`, `x-wallet-id`). */
    walletHistory: async (ref: WalletRef, query: WalletHistoryQuery = {}, options?: CallOptions) => {
      const operation = 'issuingA.walletHistory';
      const r = HttpClient.checkRequest(operation, WalletRefSchema, ref);
      const q = HttpClient.checkRequest(operation, WalletHistoryQuerySchema, query);
      return send(
        {
          operation,
          method: 'GET',
          route: '/wallet/history',
          headerSet: 'HA_WALLET',
          headers: { 'x-cardholder-id': r.cardholderId, 'x-wallet-id': r.walletId },
          query: q,
          response: z.array(WalletTransactionSchema),
        },
        options,
      );
    },

    /** GET /svc/issuing/api/v1/kyc (header `x-cardholderHash-id`): the KYC view. */
    getKyc: (ref: CardholderHashRef, options?: CallOptions) =>
      kyc('issuingA.getKyc', '/kyc', ref, single(KycViewSchema), options),

    /** GET /svc/issuing/api/v1/kyc/rfi (header `x-cardholderHash-id`): the RFI details, `undefined` if `data` is empty. */
    getRfi: (ref: CardholderHashRef, options?: CallOptions) =>
      kyc('issuingA.getRfi', '/kyc/rfi', ref, optionalSingle(RfiDetailsSchema), options),

    /** GET /svc/issuing/api/v1/kyc/rfi/respond (header `x-cardholderHash-id`): the KYC view with the document link. */
    respondRfi: (ref: CardholderHashRef, options?: CallOptions) =>
      kyc('issuingA.respondRfi', '/kyc/rfi/respond', ref, single(KycViewSchema), options),

    /** GET /svc/issuing/api/v1/card/transaction?id&page_num&page_size&from_created_at&to_created_at: `{has_more, items}`. */
    listCardTransactions: async (
      ref: CardRefA,
      query: CardTransactionsAQuery = {},
      options?: CallOptions,
    ) => {
      const operation = 'issuingA.listCardTransactions';
      const r = HttpClient.checkRequest(operation, CardRefASchema, ref);
      const q = HttpClient.checkRequest(operation, CardTransactionsAQuerySchema, query);
      return send(
        {
          operation,
          method: 'GET',
          route: '/card/transaction',
          query: { id: r.cardId, ...q },
          response: CardTransactionPageASchema,
        },
        options,
      );
    },
  };
}

export type IssuingAApi = ReturnType<typeof issuingAApi>;
