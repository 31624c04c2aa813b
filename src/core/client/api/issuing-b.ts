import { z } from 'zod';
import type { CallOptions, HttpClient } from '../http.js';
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
  WalletHistoryRefBSchema,
} from '../schemas/issuing-b.js';
import {
  type CardholderHashRef,
  CardholderHashRefSchema,
  type CardholderRef,
  CardholderRefSchema,
  optionalSingle,
  single,
  type WalletRef,
  WalletRefSchema,
} from '../schemas/issuing-common.js';
import { family } from './family.js';
import { walletAndKycApi } from './issuing-shared.js';

/** The `{version}` path parameter of family B; `v1` is the only value the spec gives. */
const ISSUING_B_VERSION = 'v1';
const PREFIX = path`/issuing/api/${ISSUING_B_VERSION}`;

/** `data: []` answers (3DS enroll/update/unenroll, spend limit update) resolve to `undefined`. */
const EmptyDataSchema = z.array(z.unknown()).transform((): undefined => undefined);

const holderHeaders = (r: CardholderRef) => ({ 'x-cardholder-id': r.cardholderId });
const walletHeaders = (r: WalletRef) => ({ 'x-cardholder-id': r.cardholderId, 'x-wallet-id': r.walletId });
const cardHeaders = (r: CardRefB) => ({ ...walletHeaders(r), 'x-card-id': r.cardId });

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
  const { on } = family(http, { prefix: PREFIX, headerSet: 'HB2', envelope: 'issuing' });
  /** New cardholders: headers `x-agent-code`, `x-subagent-code`. */
  const asAgent = on(AgentCodesBSchema, (c) => ({
    headers: { 'x-agent-code': c.agentCode, 'x-subagent-code': c.subagentCode },
  }));
  /** Cardholder read/update/activate and KYC: header `x-cardholderHash-id`. */
  const onHash = on(CardholderHashRefSchema, (r) => ({
    headers: { 'x-cardholderHash-id': r.cardholderHashId },
  }));
  const onHolder = on(CardholderRefSchema, (r) => ({ headers: holderHeaders(r) }));
  const onWallet = on(WalletRefSchema, (r) => ({ headers: walletHeaders(r) }));
  /** Wallet history: the wallet headers, and `x-card-id` for one card's transactions. */
  const onHistory = on(WalletHistoryRefBSchema, (r) => ({
    headers: { ...walletHeaders(r), 'x-card-id': r.cardId },
  }));
  /** A card endpoint: the three identity headers. */
  const onCard = on(CardRefBSchema, (r) => ({ headers: cardHeaders(r) }));

  return {
    /** POST /issuing/api/v1/cardholder (headers `x-agent-code`, `x-subagent-code`): the new cardholder's `{id}`. */
    createCardholder: (codes: AgentCodesB, body: CreateCardholderBBody, options?: CallOptions) =>
      asAgent('issuingB.createCardholder', 'POST', '/cardholder', codes, single(IdItemBSchema), options, {
        body: [CreateCardholderBBodySchema, body],
      }),

    /** GET /issuing/api/v1/cardholder (header `x-cardholderHash-id`): the cardholder. */
    getCardholder: (ref: CardholderHashRef, options?: CallOptions) =>
      onHash('issuingB.getCardholder', 'GET', '/cardholder', ref, single(CardholderBSchema), options),

    /** PATCH /issuing/api/v1/cardholder (header `x-cardholderHash-id`): changes the given fields; the service's message. */
    updateCardholder: (ref: CardholderHashRef, body: UpdateCardholderBBody, options?: CallOptions) =>
      onHash('issuingB.updateCardholder', 'PATCH', '/cardholder', ref, single(z.string()), options, {
        body: [UpdateCardholderBBodySchema, body],
      }),

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

    /** POST /issuing/api/v1/wallet/transfer (header `x-cardholder-id`): a peer-to-peer transfer; its `{id}`. */
    transfer: (ref: CardholderRef, body: TransferBody, options?: CallOptions) =>
      onHolder('issuingB.transfer', 'POST', '/wallet/transfer', ref, single(IdItemBSchema), options, {
        body: [TransferBodySchema, body],
      }),

    /** POST /issuing/api/v1/card (headers `x-cardholder-id`, `x-wallet-id`): a virtual card, active; its `{cardId}`. */
    createCard: (ref: WalletRef, body: CreateCardBBody, options?: CallOptions) =>
      onWallet('issuingB.createCard', 'POST', '/card', ref, single(CardIdItemBSchema), options, {
        body: [CreateCardBBodySchema, body],
      }),

    /** POST /issuing/api/v1/card/assign (headers `x-cardholder-id`, `x-wallet-id`): a physical card, active; its `{cardId}`. */
    assignCard: (ref: WalletRef, body: AssignCardBBody, options?: CallOptions) =>
      onWallet('issuingB.assignCard', 'POST', '/card/assign', ref, single(CardIdItemBSchema), options, {
        body: [AssignCardBBodySchema, body],
      }),

    /** GET /issuing/api/v1/card/list?page&size (headers `x-cardholder-id`, `x-wallet-id`): `{cards, total_count, page, total_pages}`. */
    listCards: (ref: WalletRef, query: ListCardsBQuery = {}, options?: CallOptions) =>
      onWallet('issuingB.listCards', 'GET', '/card/list', ref, single(CardListSchema), options, {
        query: [ListCardsBQuerySchema, query],
      }),

    /** POST /issuing/api/v1/card/activate (card headers): activates an INACTIVE card; `{status}` (`ACTIVE`). */
    activateCard: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.activateCard', 'POST', '/card/activate', ref, single(StatusItemSchema), options),

    /** GET /issuing/api/v1/card/details (card headers): the card details (masked number). */
    getCardDetails: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.getCardDetails', 'GET', '/card/details', ref, single(CardDetailsSchema), options),

    /** GET /issuing/api/v1/card/token (card headers): `{url}`, a secret link showing the full card. */
    getCardToken: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.getCardToken', 'GET', '/card/token', ref, single(CardTokenSchema), options),

    /** GET /issuing/api/v1/card/configuration (card headers): `{card_present_transaction_enabled}`. */
    getCardConfiguration: (ref: CardRefB, options?: CallOptions) =>
      onCard(
        'issuingB.getCardConfiguration',
        'GET',
        '/card/configuration',
        ref,
        single(CardConfigurationSchema),
        options,
      ),

    /** PATCH /issuing/api/v1/card/configuration (card headers): the new `{card_present_transaction_enabled}`. */
    updateCardConfiguration: (ref: CardRefB, body: UpdateCardConfigurationBody, options?: CallOptions) =>
      onCard(
        'issuingB.updateCardConfiguration',
        'PATCH',
        '/card/configuration',
        ref,
        single(CardConfigurationSchema),
        options,
        {
          body: [UpdateCardConfigurationBodySchema, body],
        },
      ),

    /**
     * PATCH /issuing/api/v1/card/status/update (card headers): sets the card status; `{status}`.
     * Body and answer are not shown in the spec: `{status}` and `[{status}]`.
     */
    updateCardStatus: (ref: CardRefB, body: UpdateCardStatusBody, options?: CallOptions) =>
      onCard(
        'issuingB.updateCardStatus',
        'PATCH',
        '/card/status/update',
        ref,
        single(StatusItemSchema),
        options,
        {
          body: [UpdateCardStatusBodySchema, body],
        },
      ),

    /** GET /issuing/api/v1/card/setpin (card headers): `{set_pin_url}`, the iframe to set the PIN. */
    getSetPinUrl: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.getSetPinUrl', 'GET', '/card/setpin', ref, single(PinUrlSchema), options),

    /** GET /issuing/api/v1/card/resetpin (card headers): `{set_pin_url}`, the iframe to reset the PIN. */
    getResetPinUrl: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.getResetPinUrl', 'GET', '/card/resetpin', ref, single(PinUrlSchema), options),

    /** GET /issuing/api/v1/card/changepin (card headers): `{set_pin_url}`, the iframe to change the PIN. */
    getChangePinUrl: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.getChangePinUrl', 'GET', '/card/changepin', ref, single(PinUrlSchema), options),

    /** POST /issuing/api/v1/card/3DS (card headers): enrolls the card in 3D Secure. */
    enroll3ds: (ref: CardRefB, body: ThreeDsBody, options?: CallOptions) =>
      onCard('issuingB.enroll3ds', 'POST', '/card/3DS', ref, EmptyDataSchema, options, {
        body: [ThreeDsBodySchema, body],
      }),

    /** GET /issuing/api/v1/card/3DS (card headers): `{otp_delivery_method, destination, status}`, `undefined` when not enrolled. */
    get3ds: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.get3ds', 'GET', '/card/3DS', ref, optionalSingle(ThreeDsEnrollmentSchema), options),

    /** PATCH /issuing/api/v1/card/3DS (card headers): changes the OTP delivery method. */
    update3ds: (ref: CardRefB, body: ThreeDsBody, options?: CallOptions) =>
      onCard('issuingB.update3ds', 'PATCH', '/card/3DS', ref, EmptyDataSchema, options, {
        body: [ThreeDsBodySchema, body],
      }),

    /** DELETE /issuing/api/v1/card/3DS (card headers): unenrolls the card from 3D Secure. */
    unenroll3ds: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.unenroll3ds', 'DELETE', '/card/3DS', ref, EmptyDataSchema, options),

    /** GET /issuing/api/v1/card/limit (card headers): the card's spend limit items. */
    getSpendLimits: (ref: CardRefB, options?: CallOptions) =>
      onCard('issuingB.getSpendLimits', 'GET', '/card/limit', ref, z.array(SpendLimitSchema), options),

    /** PATCH /issuing/api/v1/card/limit (card headers): replaces the limit of one period and transaction type. */
    updateSpendLimit: (ref: CardRefB, body: UpdateSpendLimitBody, options?: CallOptions) =>
      onCard('issuingB.updateSpendLimit', 'PATCH', '/card/limit', ref, EmptyDataSchema, options, {
        body: [UpdateSpendLimitBodySchema, body],
      }),

    ...walletAndKycApi('issuingB', { onHolder, onHistory, onHash }),
  };
}
