import type { Toolset } from '../toolset.js';
import type { PayeeControlFacts } from './payee-controls.js';
import type { QuorumGroup } from './quorum.js';
import type { CountedTotals } from './totals.js';

export { TOOLSETS, type Toolset } from '../toolset.js';

/** An amount a tool call would move, as the tool itself reports it. */
export interface Money {
  amount: number;
  currency: string;
}

/**
 * The part of a tool the policy looks at. Structural on purpose: the policy must not import the
 * registry, so any tool value with these fields can be evaluated.
 */
export type PolicyTool = {
  name: string;
  toolset: Toolset;
  hints: { readOnly: boolean; destructive: boolean; idempotent: boolean };
  money?: (input: unknown) => Money | undefined;
  /** The beneficiary a call pays (a payout's), for the payee controls. */
  payee?: (input: unknown) => string | undefined;
  /** The account a call takes money from (a payout's), for running totals and daily limits. */
  sourceAccount?: (input: unknown) => string | undefined;
};

/** What a verified token (or a CLI sign-in) says of its person; never the token itself. */
export interface OidcIdentity {
  iss: string;
  sub: string;
  /** Lower-cased. */
  email?: string;
  /** The IdP groups (`groups` or `roles` claim). */
  groups: string[];
  /** The OAuth client the person used (`client_id`, else `azp`). */
  clientId?: string;
  /** The token's id, for the audit log. */
  jti?: string;
}

/** Who is calling, as the front end established it. Only the front-end specific fields are matched. */
export type Actor = {
  /** 'slack:U123' | 'mcp:<key name>' | 'cli:alice' | 'system:alerts'; used in messages, never for matching. */
  id: string;
  /** `system`: bankops's own scheduled work (the balance alerts' check), which no person can act as. */
  frontEnd: 'slack' | 'mcp' | 'cli' | 'system';
  slackUserId?: string;
  slackGroupIds?: string[];
  mcpKeyName?: string;
  /** The local assistant over stdio, which presents no key. */
  mcpStdio?: boolean;
  cliUser?: string;
  /** bankops's own work, by its name (`alerts`). */
  system?: string;
  /** A person the identity provider vouches for: an access token over MCP, a sign-in at the CLI. */
  oidc?: OidcIdentity;
  /**
   * The e-mail of a Slack user, from `users.info`, read when the policy matches people by e-mail
   * (`people: { matchBy: email }`): it is the IdP person with that e-mail.
   */
  email?: string;
  /**
   * At the CLI against a real service: the OS account that ran the command, whatever name `--as`
   * gave. It stands behind the request as a person too, so it can never approve it.
   */
  osUser?: string;
};

/** Which rule decided, for messages and the audit log. */
export interface RuleRef {
  /** Position in the policy's `rules` list, from 0. */
  index: number;
  name: string | undefined;
  /** `'large-payouts'` for a named rule, `rules[3]` otherwise. */
  label: string;
}

export type Decision =
  | { decision: 'allow'; rule: RuleRef; reason: string }
  | { decision: 'deny'; reason: string; rule?: RuleRef }
  | {
      decision: 'approval';
      rule: RuleRef;
      approvers: number;
      approverRole: string;
      reason: string;
      /** Where the rule wants it decided, when it names a place. */
      route?: { slackChannel: string };
      /** Each vote must be confirmed with one of the voter's passkeys. */
      stepUp?: 'passkey';
      /** A quorum from several groups (`approval.from`): `approvers` is their sum. */
      groups?: QuorumGroup[];
    };

export interface EvaluationRequest {
  tool: PolicyTool;
  input: unknown;
  actor: Actor;
  /** The payee the call pays, as the store knew it (the evaluator reads nothing itself). */
  payee?: PayeeControlFacts | undefined;
  /** The time of the call, for cooling-off and `changedWithin`; now by default. */
  now?: Date | undefined;
  /** The running totals the store counted for this call, itself included (`total:` and `limits`). */
  totals?: CountedTotals | undefined;
}
