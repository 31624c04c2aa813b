import { z } from 'zod';
import type { Actor } from './types.js';

const nonEmpty = z.string().trim().min(1, 'must not be empty');

/**
 * `match: { oidc: { email | sub | group } }`: a person the identity provider vouches for, by the
 * token's (or sign-in's) `email`, its `sub`, or one of its groups (roles from IdP groups).
 */
export const OidcMatchSchema = z
  .strictObject({
    email: z
      .string()
      .trim()
      .regex(/^[^@\s]+@[^@\s]+$/, 'must be an e-mail address')
      .transform((email) => email.toLowerCase())
      .optional(),
    sub: nonEmpty.optional(),
    group: nonEmpty.optional(),
  })
  .superRefine((value, ctx) => {
    const present = (['email', 'sub', 'group'] as const).filter((key) => value[key] !== undefined);
    if (present.length !== 1)
      ctx.addIssue({ code: 'custom', message: 'needs exactly one of email, sub, group' });
  });

export type OidcMatch = z.output<typeof OidcMatchSchema>;

/**
 * `people: { matchBy: email }`: a Slack user whose e-mail (from `users.info`) is an IdP person's
 * e-mail is that person, without `person:` lines.
 */
export const PeopleSchema = z.strictObject({ matchBy: z.enum(['email']) });

/** `cli: login`: every CLI command needs a valid `bankops login` (and `--as` is refused); `local` is the default. */
export const CliSchema = z.enum(['local', 'login']);

/** `oauthClients`: the names shown for OAuth client ids ("olivia (via MCP client Claude)"). */
export const OauthClientSchema = z.strictObject({ id: nonEmpty, name: nonEmpty });

/** Whether an `oidc` match names this actor. An e-mail match also takes a Slack user's e-mail. */
export function oidcMatches(match: OidcMatch, actor: Actor): boolean {
  const identity = actor.oidc;
  if (match.email !== undefined) return (identity?.email ?? actor.email) === match.email;
  if (identity === undefined) return false;
  if (match.sub !== undefined) return identity.sub === match.sub;
  return match.group !== undefined && identity.groups.includes(match.group);
}

/** The person an IdP identity is when no `person:` line names one: its e-mail, else its subject. */
export function idpPerson(actor: Actor): string | undefined {
  const email = actor.oidc?.email ?? actor.email;
  if (email !== undefined) return email;
  return actor.oidc === undefined ? undefined : `oidc:${actor.oidc.sub}`;
}

/** The words for which claim was looked for, when an IdP person is unknown to the policy. */
export function lookedFor(actor: Actor): string {
  const identity = actor.oidc;
  if (identity === undefined) return 'no identity provider claims';
  const parts = [
    identity.email === undefined ? 'no email claim' : `email ${identity.email}`,
    `sub ${identity.sub}`,
    identity.groups.length === 0 ? 'no groups' : `groups ${identity.groups.join(', ')}`,
  ];
  return `the policy has no oidc match for ${parts.join(', ')} (actors[].match.oidc)`;
}
