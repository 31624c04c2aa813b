import type { SandboxClock } from './clock.js';
import type { SandboxCredentials } from './credentials.js';
import type { EventBus } from './events.js';
import type { TokenIssuer } from './tokens.js';

/** Which envelope an endpoint answers in (spec: "Response envelopes"). */
export type EnvelopeKind = 'banking' | 'issuing' | 'notification' | 'bare';

/**
 * Header sets of the spec ("Shorthand for header sets"), plus the token endpoint, the user lookup
 * and the notification endpoints, and `none` for the sandbox's own control surface.
 */
export type HeaderSetName = 'TOKEN' | 'USERS' | 'HB' | 'HA' | 'HA_WALLET' | 'HB2' | 'NOTIFY' | 'none';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

export interface SandboxRequest {
  method: HttpMethod;
  /** Path without the query string. */
  path: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** Header lookup, case-insensitive; `undefined` when absent. */
  header(name: string): string | undefined;
  /** Parsed JSON body, `undefined` when the request had none. */
  body: unknown;
  /** The caller identity established by the header checks (user id of the token, if any). */
  auth: { userId?: string };
}

/** What a handler returns; the server wraps it in the route's envelope. */
export interface Reply {
  data?: unknown;
  message?: string;
  /** Extra top-level envelope fields (e.g. `totalcount` on the family A cardholder list). */
  fields?: Record<string, unknown>;
  /** The envelope's `status` word when an endpoint uses its own casing (e.g. `Success`). */
  statusWord?: string;
  /** For `bare` routes: the whole JSON body. */
  raw?: unknown;
  /** Overrides the route's success code (rarely needed). */
  httpStatus?: number;
}

export interface RouteDef {
  /** Operation name, used for stats, idempotency scope and fault targeting. */
  operation: string;
  method: HttpMethod;
  /** Path pattern; `:name` segments are parameters (`/issuing/api/:version/...`). */
  path: string;
  envelope: EnvelopeKind;
  headers: HeaderSetName;
  /** Headers required on top of the set (e.g. `agent-code`, `x-cardholder-id`). */
  requiredHeaders?: readonly string[];
  successCode: 200 | 201 | 202;
  /**
   * `x-request-id` is the idempotency key here: a repeat with the same request returns the first
   * answer and creates nothing; the same id with a different request is refused.
   */
  idempotent?: boolean;
  handler(req: SandboxRequest): Reply | Promise<Reply>;
}

export interface SandboxContext {
  readonly credentials: SandboxCredentials;
  readonly clock: SandboxClock;
  readonly events: EventBus;
  /** Issues and verifies bearer tokens (the token endpoint lives in the banking area). */
  readonly tokens: TokenIssuer;
  /** A new opaque id with a readable prefix (`po_…`, `card_…`). */
  newId(prefix: string): string;
  /** Real-time waits between the attempts of a webhook delivery (one attempt more than waits). */
  readonly webhookBackoffMs: readonly number[];
}

/**
 * One area of the service (banking, issuing A, issuing B, notifications). It owns its state:
 * `seed` builds it (again on `POST /_sandbox/reset`), `routes` serve it.
 */
export interface SandboxArea<S> {
  readonly name: string;
  seed(ctx: SandboxContext): S;
  routes(ctx: SandboxContext, state: () => S): RouteDef[];
}
