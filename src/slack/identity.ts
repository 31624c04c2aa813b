import { slackActor } from '../core/actors.js';
import type { Logger } from '../core/log.js';
import type { Policy } from '../core/policy/schema.js';
import type { Actor } from '../core/policy/types.js';

export interface IdentityOptions {
  /** The policy in force (it reloads): the user groups it names. */
  policy: () => Policy;
  /** Whether the policy has an entry for the actor (the executor's judgement). */
  knows: (actor: Actor) => boolean;
  /** Members of a user group (`usergroups.users.list`). */
  groupMembers: (groupId: string) => Promise<readonly string[]>;
  /** A user's e-mail (`users.info`), read when the policy says `people: { matchBy: email }`. */
  emailOf?: (userId: string) => Promise<string | undefined>;
  log: Logger;
  /** How long a group's members are trusted (default 60 s). */
  ttlMs?: number;
  /** A miss refreshes the groups at most this often (default 10 s), so one stranger cannot flood Slack. */
  missRefreshMs?: number;
  now?: () => number;
}

interface Members {
  users: ReadonlySet<string>;
  fetchedAt: number;
}

/** The user groups the policy names: only their members matter, so only they are looked up. */
function policyGroups(policy: Policy): string[] {
  const groups = policy.actors.flatMap((entry) =>
    entry.match.slackGroup === undefined ? [] : [entry.match.slackGroup],
  );
  return [...new Set(groups)];
}

/**
 * Who a Slack user is to the policy: `slack:<user id>` with the user groups (among those the policy
 * names) they belong to. Members are cached briefly; a user found in none of them, or unknown to
 * the policy, refreshes the cache (at most every `missRefreshMs`), so someone just added to a group
 * does not wait for the cache to expire. Channel membership grants nothing.
 */
export class SlackIdentities {
  readonly #options: IdentityOptions;
  readonly #members = new Map<string, Members>();
  /** E-mails by user, with when they were read: an e-mail changed in Slack is read again after the ttl. */
  readonly #emails = new Map<string, { email: string | undefined; fetchedAt: number }>();
  #lastMissRefresh = 0;

  constructor(options: IdentityOptions) {
    this.#options = options;
  }

  async actorFor(userId: string): Promise<Actor> {
    const policy = this.#options.policy();
    const groups = policyGroups(policy);
    const ttl = this.#options.ttlMs ?? 60_000;
    const now = this.#now();
    const stale = groups.filter((g) => now - (this.#members.get(g)?.fetchedAt ?? -Infinity) > ttl);
    await this.#refresh(stale);
    let actor = slackActor(userId, this.#groupsOf(userId, groups));
    const miss = actor.slackGroupIds?.length === 0 || !this.#options.knows(actor);
    // The groups just read are not read again; the others may be out of date for this person.
    const cached = groups.filter((g) => !stale.includes(g));
    if (cached.length > 0 && miss && now - this.#lastMissRefresh >= (this.#options.missRefreshMs ?? 10_000)) {
      this.#lastMissRefresh = now;
      await this.#refresh(cached);
      actor = slackActor(userId, this.#groupsOf(userId, groups));
    }
    if (policy.people?.matchBy !== 'email') return actor;
    const email = await this.#emailOf(userId, now, ttl);
    return email === undefined ? actor : { ...actor, email };
  }

  /**
   * The user's e-mail, lower-cased, cached like group members. A failed lookup grants nothing: the
   * user is then only who the policy's slackUser and slackGroup entries say.
   */
  async #emailOf(userId: string, now: number, ttl: number): Promise<string | undefined> {
    const cached = this.#emails.get(userId);
    if (cached !== undefined && now - cached.fetchedAt <= ttl) return cached.email;
    try {
      const email = (await this.#options.emailOf?.(userId))?.trim().toLowerCase() || undefined;
      this.#emails.set(userId, { email, fetchedAt: now });
      return email;
    } catch (error) {
      this.#emails.delete(userId);
      this.#options.log.warn('slack: users.info failed; the user is not matched by e-mail until it works', {
        user: userId,
        error,
      });
      return undefined;
    }
  }

  /** Whether the policy gives this actor any entry at all (an unknown user is told so, with their id). */
  isKnown(actor: Actor): boolean {
    return this.#options.knows(actor);
  }

  #groupsOf(userId: string, groups: readonly string[]): string[] {
    return groups.filter((g) => this.#members.get(g)?.users.has(userId) === true);
  }

  async #refresh(groups: readonly string[]): Promise<void> {
    await Promise.all(
      groups.map(async (group) => {
        try {
          const users = await this.#options.groupMembers(group);
          this.#members.set(group, { users: new Set(users), fetchedAt: this.#now() });
        } catch (error) {
          // Fail closed: roles from a group whose members cannot be read now are not granted (a person
          // removed from it must not keep them through a stale list); slackUser entries still apply.
          this.#members.delete(group);
          this.#options.log.warn(
            'slack: user group lookup failed; its roles are not granted until it works',
            {
              group,
              error,
            },
          );
        }
      }),
    );
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }
}
