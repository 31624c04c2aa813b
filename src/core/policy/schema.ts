import { z } from 'zod';
import { BreakGlassSchema } from './break-glass.js';
import { checkGovernance, GovernanceSchema } from './governance.js';
import { LimitsSectionSchema } from './limits.js';
import { CliSchema, OauthClientSchema, OidcMatchSchema, PeopleSchema } from './oidc.js';
import { type PayeeCondition, PayeeConditionSchema, PayeesSectionSchema } from './payee-controls.js';
import { checkQuorumForm, normalQuorum, QuorumFromSchema } from './quorum.js';
import { checkReferences } from './references.js';
import { ReminderSchema } from './reminder.js';
import { type TimeCondition, TimeConditionSchema } from './time-window.js';
import { type TotalCondition, TotalConditionSchema } from './totals.js';
import { TOOLSETS } from './types.js';

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const roleName = nonEmpty;

/** Exactly one of the given keys must be present: a match or condition that mixes kinds is ambiguous. */
function exactlyOne(keys: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const present = keys.filter((key) => value[key] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          present.length === 0
            ? `needs one of ${keys.join(', ')}`
            : `has ${present.join(' and ')}; give exactly one (split it into several entries)`,
      });
    }
  };
}

const ActorMatchSchema = z
  .strictObject({
    slackUser: nonEmpty.optional(),
    slackGroup: nonEmpty.optional(),
    /** The NAME of an entry of `mcpKeys`. */
    mcpKey: nonEmpty.optional(),
    /** The assistant on this machine, over stdio (`bankops mcp`): it presents no key. */
    mcpStdio: z.literal(true).optional(),
    /** A local user name, or '*' for any local user. */
    cli: nonEmpty.optional(),
    /** bankops's own scheduled work, by its name: `alerts` reads the balances for balance alerts. */
    system: nonEmpty.optional(),
    /** A person the identity provider vouches for, by `email`, `sub` or `group` (policy.md "People from the IdP"). */
    oidc: OidcMatchSchema.optional(),
  })
  .superRefine(exactlyOne(['slackUser', 'slackGroup', 'mcpKey', 'mcpStdio', 'cli', 'system', 'oidc']));

/** A person's name: the identities (Slack user, CLI user, MCP key) that carry it are one person. */
const personName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._@-]{1,64}$/, 'letters, digits and . _ @ - only, at most 64');

const ActorEntrySchema = z
  .strictObject({
    match: ActorMatchSchema,
    roles: z.array(roleName),
    /**
     * The person behind this identity. Identities with the same person are one person: the
     * requester never approves, and each person's vote counts once, across front ends.
     */
    person: personName.optional(),
  })
  .superRefine((entry, ctx) => {
    // A person is one human: an entry that matches many identities cannot name one.
    const many =
      entry.match.slackGroup !== undefined
        ? 'slackGroup'
        : entry.match.cli === '*'
          ? "cli '*'"
          : entry.match.oidc?.group !== undefined
            ? 'oidc group'
            : undefined;
    if (entry.person !== undefined && many !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['person'],
        message: `a ${many} entry matches many identities and cannot name one person; give person on the entries of single identities`,
      });
    }
  });

const McpKeySchema = z.strictObject({
  // `stdio` names the local assistant (actor id `mcp:stdio`): a key of that name would share its id.
  name: nonEmpty.refine((name) => name !== 'stdio', "'stdio' is reserved for the local assistant over stdio"),
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be the SHA-256 hex digest of the key (64 hex characters)')
    .transform((digest) => digest.toLowerCase()),
});

const AmountConditionSchema = z.strictObject({
  atLeast: z.record(z.string(), z.number().finite().nonnegative()).superRefine((thresholds, ctx) => {
    const keys = Object.keys(thresholds);
    if (keys.length === 0)
      ctx.addIssue({ code: 'custom', message: 'needs at least one currency or "default"' });
    for (const key of keys) {
      if (key !== 'default' && !/^[A-Z]{3}$/.test(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'must be a 3-letter upper-case currency code or "default"',
        });
      }
    }
  }),
});

const InputConditionSchema = z.strictObject({
  /** Dotted path into the tool input: `status`, `card.status`. */
  path: z.string().regex(/^[^.\s]+(\.[^.\s]+)*$/, 'must be a dotted path such as "status" or "card.status"'),
  in: z.array(z.string()).min(1),
});

type AmountCondition = z.output<typeof AmountConditionSchema>;
type PayeeConditionText = z.input<typeof PayeeConditionSchema>;
type InputCondition = z.output<typeof InputConditionSchema>;

/**
 * A rule's `when`, as the evaluator and the policy view handle it: a discriminated union, so every
 * switch over `kind` is exhaustive. (Spelled out because inference cannot see through the getters
 * of the recursive schema; the schema below produces exactly this.)
 */
export type Condition =
  | ({ kind: 'amount' } & AmountCondition)
  | ({ kind: 'input' } & InputCondition)
  | ({ kind: 'payee' } & PayeeCondition)
  | ({ kind: 'total' } & TotalCondition)
  | ({ kind: 'time' } & TimeCondition)
  | { kind: 'all'; of: Condition[] }
  | { kind: 'any'; of: Condition[] };

/** The condition as written in the file: an object holding exactly one of these keys. */
export interface ConditionText {
  amount?: z.input<typeof AmountConditionSchema> | undefined;
  input?: z.input<typeof InputConditionSchema> | undefined;
  payee?: PayeeConditionText | undefined;
  total?: z.input<typeof TotalConditionSchema> | undefined;
  time?: z.input<typeof TimeConditionSchema> | undefined;
  all?: ConditionText[] | undefined;
  any?: ConditionText[] | undefined;
}

/** Tags the one key that is present; `exactlyOne` has made sure there is exactly one. */
function tagged(raw: {
  amount?: AmountCondition | undefined;
  input?: InputCondition | undefined;
  payee?: PayeeCondition | undefined;
  total?: TotalCondition | undefined;
  time?: TimeCondition | undefined;
  all?: Condition[] | undefined;
  any?: Condition[] | undefined;
}): Condition {
  if (raw.amount !== undefined) return { kind: 'amount', ...raw.amount };
  if (raw.input !== undefined) return { kind: 'input', ...raw.input };
  if (raw.payee !== undefined) return { kind: 'payee', ...raw.payee };
  if (raw.total !== undefined) return { kind: 'total', ...raw.total };
  if (raw.time !== undefined) return { kind: 'time', ...raw.time };
  if (raw.all !== undefined) return { kind: 'all', of: raw.all };
  return { kind: 'any', of: raw.any ?? [] };
}

const ConditionSchema: z.ZodType<Condition, ConditionText> = z
  .strictObject({
    amount: AmountConditionSchema.optional(),
    input: InputConditionSchema.optional(),
    payee: PayeeConditionSchema.optional(),
    total: TotalConditionSchema.optional(),
    time: TimeConditionSchema.optional(),
    get all() {
      return z.array(ConditionSchema).min(1).optional();
    },
    get any() {
      return z.array(ConditionSchema).min(1).optional();
    },
  })
  .superRefine(exactlyOne(['amount', 'input', 'payee', 'total', 'time', 'all', 'any']))
  .transform(tagged);

const ApprovalSchema = z
  .strictObject({
    approvers: z.number().int().min(1).max(5).optional(),
    role: roleName.optional(),
    /** A quorum from several groups, one count per role (./quorum.ts); instead of approvers and role. */
    from: QuorumFromSchema.optional(),
    /** Where this rule's approvals are decided in Slack (a channel id), instead of the default channel. */
    slackChannel: z
      .string()
      .regex(/^[CG][A-Z0-9]{2,}$/, 'must be a Slack channel id such as C0TREASURY')
      .optional(),
    /**
     * `passkey`: a vote counts only once the voter confirms it with one of their passkeys, signing
     * what would run (docs/approvals.md "Step-up"). Needs an https `BANKOPS_PUBLIC_URL`.
     */
    stepUp: z.enum(['passkey']).optional(),
    /**
     * How long an approval waits without a vote before Slack reminds its approvers (`15m` by default,
     * `2h`, `off`); a second reminder comes halfway between the first and the deadline.
     */
    reminder: ReminderSchema.optional(),
  })
  .superRefine(checkQuorumForm)
  .transform(normalQuorum);

const RuleSchema = z.strictObject({
  name: nonEmpty.optional(),
  tools: z
    .array(z.string().regex(/^[a-z0-9_]{1,64}$/, 'must be a tool name ([a-z0-9_], 1-64)'))
    .min(1)
    .optional(),
  toolsets: z.array(z.enum(TOOLSETS)).min(1).optional(),
  readOnly: z.boolean().optional(),
  when: ConditionSchema.optional(),
  allow: z.array(roleName),
  approval: ApprovalSchema.optional(),
});

const PolicyShape = z.strictObject({
  /** Optional list of role names; when given, every role used elsewhere must be in it (catches typos). */
  roles: z.array(roleName).optional(),
  actors: z.array(ActorEntrySchema).default([]),
  mcpKeys: z.array(McpKeySchema).default([]),
  /** The names of OAuth clients, by client id, for "olivia (via MCP client Claude)". */
  oauthClients: z.array(OauthClientSchema).default([]),
  people: PeopleSchema.optional(),
  cli: CliSchema.default('local'),
  rules: z.array(RuleSchema),
  /** Cooling-off after a payee directory change, and a cap on first payments (./payee-controls.ts). */
  payees: PayeesSectionSchema.optional(),
  /** Daily caps per requester, beneficiary and source account (./limits.ts). */
  limits: LimitsSectionSchema.optional(),
  /** Changes under four eyes (./governance.ts); absent: the file decides, as it always did. */
  governance: GovernanceSchema.optional(),
  /** Running an approval without its missing votes, the day approvers are unreachable (./break-glass.ts). */
  breakGlass: BreakGlassSchema.optional(),
});

export const PolicySchema = PolicyShape.superRefine((policy, ctx) => {
  checkReferences(policy, ctx);
  checkGovernance(policy.governance, policy.actors, ctx);
});

export type ActorEntry = z.output<typeof ActorEntrySchema>;
export type McpKeyEntry = z.output<typeof McpKeySchema>;
export type Rule = z.output<typeof RuleSchema>;
export type Policy = z.output<typeof PolicyShape>;
