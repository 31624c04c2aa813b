import type { z } from 'zod';
import { optional } from '../../optional.js';
import type { EnvelopeKind } from '../envelope.js';
import {
  type CallOptions,
  type HeaderSetName,
  HttpClient,
  type HttpMethod,
  type QueryValue,
  type RequestSpec,
} from '../http.js';

/** What every call to one family of endpoints shares. */
export interface Family {
  /** The path prefix, version included (`/svc/issuing/api/v1`). */
  prefix: string;
  headerSet: HeaderSetName;
  envelope: EnvelopeKind;
}

/** The banking endpoints (accounts, beneficiaries, conversions, payouts). */
export const BANKING: Family = { prefix: '/svc/banking/api/v1', headerSet: 'HB', envelope: 'banking' };

/** One call of a family: its path below the family's prefix; header set and envelope default to the family's. */
export type Route<S extends z.ZodType> = Omit<RequestSpec<S>, 'path' | 'headerSet' | 'envelope'> &
  Partial<Pick<RequestSpec<S>, 'headerSet' | 'envelope'>> & {
    /** Path below the family prefix, built with the `path` tag where it carries an id. */
    route: string;
  };

/** A request value and the schema it is checked with before anything is sent. */
export type Checked<T = unknown> = readonly [schema: z.ZodType<T>, value: unknown];

/** What a call sends besides its reference, and what of the answer its `response` describes. */
export interface Extras extends Pick<RequestSpec<z.ZodType>, 'take'> {
  body?: Checked;
  query?: Checked<Readonly<Record<string, QueryValue>>>;
}

/** Where a checked reference goes: identity headers, query parameters (before the call's own), or both. */
export type Placement = Pick<RequestSpec<z.ZodType>, 'headers' | 'query'>;

/** A call whose body and query are checked with their schemas, in that order, before it is sent. */
export type CheckedCall = <S extends z.ZodType>(
  operation: string,
  method: HttpMethod,
  route: string,
  response: S,
  options: CallOptions | undefined,
  extras?: Extras,
) => Promise<z.infer<S>>;

/** A checked call made on behalf of a reference, which is checked first; see `FamilyApi.on`. */
export type OnBehalfOf<R extends z.ZodType> = <S extends z.ZodType>(
  operation: string,
  method: HttpMethod,
  route: string,
  ref: z.input<R>,
  response: S,
  options: CallOptions | undefined,
  extras?: Extras,
) => Promise<z.infer<S>>;

export interface FamilyApi {
  /** Sends a call, filling in the family's prefix, header set and envelope. */
  send<S extends z.ZodType>(route: Route<S>, options: CallOptions | undefined): Promise<z.infer<S>>;
  checked: CheckedCall;
  /**
   * Calls made on behalf of one kind of reference (a cardholder, a wallet, a card, agent codes):
   * the reference is checked with `schema` before the body and query, and the call goes out with
   * the headers and query `place` makes of it.
   */
  on<R extends z.ZodType>(schema: R, place: (ref: z.output<R>) => Placement): OnBehalfOf<R>;
}

/** The calls of one family of endpoints (a version prefix, a header set, an envelope). */
export function family(http: HttpClient, { prefix, headerSet, envelope }: Family): FamilyApi {
  const send: FamilyApi['send'] = ({ route, ...spec }, options) =>
    http.call({ headerSet, envelope, ...spec, path: `${prefix}${route}` }, options);

  const checkAndSend = async <S extends z.ZodType>(
    operation: string,
    method: HttpMethod,
    route: string,
    response: S,
    options: CallOptions | undefined,
    { body, query, ...rest }: Extras,
    placed: Placement,
  ): Promise<z.infer<S>> => {
    const b = body === undefined ? undefined : HttpClient.checkRequest(operation, body[0], body[1]);
    const q = query === undefined ? undefined : HttpClient.checkRequest(operation, query[0], query[1]);
    const fullQuery = q === undefined ? placed.query : { ...placed.query, ...q };
    return send(
      {
        operation,
        method,
        route,
        response,
        ...rest,
        ...optional('headers', placed.headers),
        ...optional('query', fullQuery),
        ...optional('body', b),
      },
      options,
    );
  };

  return {
    send,
    checked: (operation, method, route, response, options, extras = {}) =>
      checkAndSend(operation, method, route, response, options, extras, {}),
    on:
      (schema, place) =>
      async (operation, method, route, ref, response, options, extras = {}) =>
        checkAndSend(
          operation,
          method,
          route,
          response,
          options,
          extras,
          place(HttpClient.checkRequest(operation, schema, ref)),
        ),
  };
}
