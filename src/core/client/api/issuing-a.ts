import type { CallOptions, HttpClient } from '../http.js';
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
  CardholderHashRefSchema,
  type CardholderRef,
  CardholderRefSchema,
  type IssuingAck,
  IssuingAckSchema,
  objectOrSingle,
  single,
  toAck,
  WalletRefSchema,
} from '../schemas/issuing-common.js';
import { family } from './family.js';
import { walletAndKycApi } from './issuing-shared.js';

const PREFIX = '/svc/issuing/api/v1';

/**
 * Issuing family A (spec "Issuing family A"). Methods take the identity headers and query ids
 * (`{cardholderId}`, `{cardId}`, `{cardholderHashId}`) first, then the body or query with the
 * spec's field names, then `CallOptions`. A `data` array of one element is returned as that
 * element (`undefined` for an empty array where that means "none", as for RFI details); answers
 * without `data` are returned as `{status, message, code}`.
 */
export function issuingAApi(http: HttpClient) {
  const { checked, on } = family(http, { prefix: PREFIX, headerSet: 'HA', envelope: 'issuing' });
  /** The wallet endpoints, where `Authorization` is optional: header set HA_WALLET. */
  const wallets = family(http, { prefix: PREFIX, headerSet: 'HA_WALLET', envelope: 'issuing' });
  /** New cardholders: headers `agent-code`, `subagent-code`. */
  const asAgent = on(AgentCodesASchema, (c) => ({
    headers: { 'agent-code': c.agentCode, 'subagent-code': c.subagentCode },
  }));
  /** A cardholder named in the query (`?id=`). */
  const byHolderId = on(CardholderRefSchema, (r) => ({ query: { id: r.cardholderId } }));
  /** A card named in the query (`?id=`). */
  const byCardId = on(CardRefASchema, (r) => ({ query: { id: r.cardId } }));
  /** Wallet endpoints: header `x-cardholder-id`, and `x-wallet-id` for one wallet. */
  const onHolder = wallets.on(CardholderRefSchema, (r) => ({
    headers: { 'x-cardholder-id': r.cardholderId },
  }));
  const onWallet = wallets.on(WalletRefSchema, (r) => ({
    headers: { 'x-cardholder-id': r.cardholderId, 'x-wallet-id': r.walletId },
  }));
  /** KYC: headers `x-cardholderHash-id` and, when configured, `x-client-id`. */
  const onHash = on(CardholderHashRefSchema, (r) => ({
    headers: { 'x-cardholderHash-id': r.cardholderHashId, 'x-client-id': http.config.clientId },
  }));

  return {
    /** POST /svc/issuing/api/v1/card/cardholder (headers `agent-code`, `subagent-code`): the new cardholder's `{id}`. */
    createCardholder: (codes: AgentCodesA, body: CreateCardholderABody, options?: CallOptions) =>
      asAgent('issuingA.createCardholder', 'POST', '/card/cardholder', codes, single(IdItemSchema), options, {
        body: [CreateCardholderABodySchema, body],
      }),

    /** GET /svc/issuing/api/v1/card/cardholder?status&page_num&page_size: a page of cardholders and `totalcount`. */
    listCardholders: async (
      query: ListCardholdersAQuery = {},
      options?: CallOptions,
    ): Promise<CardholderListA> => {
      const envelope = await checked(
        'issuingA.listCardholders',
        'GET',
        '/card/cardholder',
        CardholderListEnvelopeSchema,
        options,
        { query: [ListCardholdersAQuerySchema, query], take: 'envelope' },
      );
      return { totalcount: envelope.totalcount, cardholders: envelope.data };
    },

    /** GET /svc/issuing/api/v1/card/cardholder?id= or ?email=: one cardholder. */
    getCardholder: (query: GetCardholderAQuery, options?: CallOptions) =>
      checked('issuingA.getCardholder', 'GET', '/card/cardholder', single(CardholderASchema), options, {
        query: [GetCardholderAQuerySchema, query],
      }),

    /** PATCH /svc/issuing/api/v1/card/cardholder?id=: changes the supplied fields; the envelope without `data`. */
    updateCardholder: (
      ref: CardholderRef,
      body: UpdateCardholderABody,
      options?: CallOptions,
    ): Promise<IssuingAck> =>
      byHolderId('issuingA.updateCardholder', 'PATCH', '/card/cardholder', ref, IssuingAckSchema, options, {
        body: [UpdateCardholderABodySchema, body],
        take: 'envelope',
      }).then(toAck),

    /** POST /svc/issuing/api/v1/card: a virtual card, active at creation; its `{id}`. */
    createCard: (body: CreateCardABody, options?: CallOptions) =>
      checked('issuingA.createCard', 'POST', '/card', objectOrSingle(IdItemSchema), options, {
        body: [CreateCardABodySchema, body],
      }),

    /** POST /svc/issuing/api/v1/card/assign: assigns a physical card; its `{card_id}` (activate it next). */
    assignCard: (body: AssignCardABody, options?: CallOptions) =>
      checked('issuingA.assignCard', 'POST', '/card/assign', single(CardIdItemASchema), options, {
        body: [AssignCardABodySchema, body],
      }),

    /** POST /svc/issuing/api/v1/card/activate?id=: activates an assigned physical card and sets its PIN. */
    activateCard: (ref: CardRefA, body: ActivateCardABody, options?: CallOptions): Promise<IssuingAck> =>
      byCardId('issuingA.activateCard', 'POST', '/card/activate', ref, IssuingAckSchema, options, {
        body: [ActivateCardABodySchema, body],
        take: 'envelope',
      }).then(toAck),

    /** POST /svc/issuing/api/v1/card/pin?id=: resets the PIN of an assigned physical card. */
    resetPin: (ref: CardRefA, body: ResetPinABody, options?: CallOptions): Promise<IssuingAck> =>
      byCardId('issuingA.resetPin', 'POST', '/card/pin', ref, IssuingAckSchema, options, {
        body: [ResetPinABodySchema, body],
        take: 'envelope',
      }).then(toAck),

    /** GET /svc/issuing/api/v1/card/transaction?id&page_num&page_size&from_created_at&to_created_at: `{has_more, items}`. */
    listCardTransactions: (ref: CardRefA, query: CardTransactionsAQuery = {}, options?: CallOptions) =>
      byCardId(
        'issuingA.listCardTransactions',
        'GET',
        '/card/transaction',
        ref,
        CardTransactionPageASchema,
        options,
        {
          query: [CardTransactionsAQuerySchema, query],
        },
      ),

    ...walletAndKycApi('issuingA', { onHolder, onHistory: onWallet, onHash }),
  };
}
