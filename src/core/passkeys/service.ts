import type { BreakGlassReady } from '../approvals/break-glass.js';
import { whyNotDecide } from '../approvals/deciders.js';
import type { SignTarget } from '../approvals/step-up.js';
import type { ApprovalActionResult, ApprovalView } from '../approvals/types.js';
import type { AuditLog } from '../audit/index.js';
import { internalError } from '../errors.js';
import type { Executor } from '../executor.js';
import { notFoundIn } from '../not-found.js';
import { optional } from '../optional.js';
import { personOf } from '../policy/actors.js';
import type { Actor, Money } from '../policy/types.js';
import type { Storage, Stores } from '../store/index.js';
import { breakGlassAsked, breakGlassRefused } from './break-glass-entries.js';
import { challengeOf, newNonce } from './challenge.js';
import { infoOf, type PasskeyInfo } from './credentials.js';
import { finishEnrolment, registrationOptions } from './enrol.js';
import { PasskeyError } from './errors.js';
import { PasskeyGate } from './gate.js';
import { digestOf, LINK_TTL_MS, type Link, type LinkPurpose, looksLikeToken, newToken } from './links.js';
import { type RelyingParty, relyingPartyOf } from './relying-party.js';
import { webauthn } from './webauthn.js';

export interface PasskeyServiceOptions {
  /** Where passkeys, links and the audit chain live: a passkey's change and its entry commit together. */
  storage: Storage;
  audit: AuditLog;
  /** `BANKOPS_PUBLIC_URL`: the links' base, the origin and relying party of the passkeys. */
  publicUrl: string | undefined;
  now?: () => Date;
  /** Where bankops keeps its records, named by a "not found" (`notFoundIn`). */
  store?: string;
}

/** A link made for a person: where it leads, and until when. The URL holds the token: show it only to them. */
export interface IssuedLink {
  url: string;
  expiresAt: string;
}

/** The approval page's subject: the approval as it stands, and who votes through this link. */
export interface ApprovalPageData {
  view: ApprovalView;
  person: string;
  actor: Actor;
  expiresAt: string;
}

/** The break-glass page's subject: the approval, the reason given, and the cap it runs under. */
export interface BreakGlassPageData extends ApprovalPageData {
  reason: string;
  /** The break-glass cap in the currency of the debit; undefined when it moves no money. */
  cap?: Money;
}

export const ENROL_PATH = '/passkeys/enroll/';
export const APPROVE_PATH = '/approve/';
export const BREAK_GLASS_PATH = '/break-glass/';

const PATHS: Readonly<Record<LinkPurpose, string>> = {
  enroll: ENROL_PATH,
  approve: APPROVE_PATH,
  break_glass: BREAK_GLASS_PATH,
};

/**
 * Passkeys of people (DESIGN decision 16): one-time links to the enrolment and approval pages,
 * registration, the list and revocation (audited), and signed votes through the executor. The
 * signature check itself is `gate` (given to the approvals engine), so a vote is judged in one place.
 */
export class PasskeyService {
  readonly gate: PasskeyGate;
  readonly #storage: Storage;
  readonly #audit: AuditLog;
  readonly #publicUrl: string | undefined;
  readonly #now: () => Date;
  readonly #store: string | undefined;
  #executor: Executor | undefined;

  constructor(options: PasskeyServiceOptions) {
    this.#storage = options.storage;
    this.#audit = options.audit;
    this.#publicUrl = options.publicUrl;
    this.#now = options.now ?? (() => new Date());
    this.#store = options.store;
    this.gate = new PasskeyGate(options.storage, () => this.rp(), this.#now);
  }

  /** The executor votes go through (it is built after the gate it needs). */
  attach(executor: Executor): void {
    this.#executor = executor;
  }

  get #exec(): Executor {
    if (this.#executor === undefined) throw internalError('PasskeyService: no executor attached');
    return this.#executor;
  }

  /** Throws a 503 `PasskeyError` (`not_configured`) when `BANKOPS_PUBLIC_URL` cannot carry passkeys. */
  rp(): RelyingParty {
    return relyingPartyOf(this.#publicUrl);
  }

  personOf(actor: Actor): string {
    return personOf(this.#exec.policy, actor);
  }

  async list(person: string): Promise<PasskeyInfo[]> {
    return (await this.#storage.read((s) => s.credentials.active(person))).map(infoOf);
  }

  /** Revokes a person's passkey by name, audited; its earlier signatures still verify offline. */
  revoke(person: string, name: string, by: Actor): Promise<PasskeyInfo> {
    return this.#storage.transaction(async (tx): Promise<PasskeyInfo> => {
      const row = await tx.credentials.activeNamed(person, name);
      if (row === undefined) {
        const names = (await tx.credentials.active(person)).map((r) => `"${r.name}"`);
        throw new PasskeyError(
          404,
          `${notFoundIn(`${person} has no passkey named "${name}"`, this.#store)}${names.length === 0 ? '' : `; theirs: ${names.join(', ')}`}`,
        );
      }
      await tx.credentials.revoke(row.credentialId, this.#now().toISOString());
      await this.#audit.appendIn(tx, {
        actor: by.id,
        frontEnd: by.frontEnd,
        tool: 'passkey',
        input: { person, name, credentialId: row.credentialId },
        event: 'credential',
        decision: 'revoked',
        outcome: 'ok',
      });
      return infoOf(row);
    });
  }

  // Enrolment.

  /** A one-time link (15 minutes) for `person` to register a passkey; `issuer` asked for it. */
  enrolLink(person: string, issuer: Actor): Promise<IssuedLink> {
    return this.#issue('enroll', person, issuer, null);
  }

  async enrolPage(token: string): Promise<{ person: string; expiresAt: string; passkeys: PasskeyInfo[] }> {
    const link = await this.#usable(token, 'enroll');
    return { person: link.person, expiresAt: link.expiresAt, passkeys: await this.list(link.person) };
  }

  async enrolOptions(token: string): Promise<unknown> {
    const link = await this.#usable(token, 'enroll');
    const active = await this.#storage.read((s) => s.credentials.active(link.person));
    const options = await registrationOptions(this.rp(), link.person, active);
    await this.#storage.transaction((tx) => tx.links.setChallenge(link.digest, options.challenge));
    return options;
  }

  async enrolFinish(token: string, name: unknown, response: unknown): Promise<PasskeyInfo> {
    const link = await this.#claim(token, 'enroll');
    return finishEnrolment(
      {
        storage: this.#storage,
        audit: this.#audit,
        rp: this.rp(),
        now: this.#now(),
      },
      link,
      name,
      response,
    );
  }

  // Approval.

  /**
   * A one-time link (5 minutes) for `actor` to confirm their vote on a step-up approval with a
   * passkey. Refused, with the reason, when they could not vote on it anyway.
   */
  async approvalLink(approvalId: string, actor: Actor): Promise<IssuedLink> {
    const view = await this.#exec.getApproval(approvalId);
    if (view === undefined) throw new PasskeyError(404, `no approval ${approvalId}`);
    const person = this.personOf(actor);
    const why = this.#whyNot(view, actor);
    if (why !== undefined) throw new PasskeyError(409, why);
    await this.#hasPasskey(person, `${approvalId} needs your vote confirmed with a passkey`);
    return this.#issue('approve', person, actor, approvalId);
  }

  async approvalPage(token: string): Promise<ApprovalPageData> {
    const link = await this.#usable(token, 'approve');
    const view = await this.#exec.getApproval(link.approvalId ?? '');
    if (view === undefined) throw new PasskeyError(404, 'the approval of this link is gone');
    return {
      view,
      person: link.person,
      actor: link.actor,
      expiresAt: link.expiresAt,
    };
  }

  /**
   * The options of `navigator.credentials.get`: the challenge is the hash of what would run now with
   * a fresh nonce. `shownAttempt` is the quote the page showed: a newer one must be read first.
   */
  async approvalOptions(token: string, shownAttempt: number): Promise<unknown> {
    const link = await this.#usable(token, 'approve');
    const target = await this.#exec.signTarget(link.approvalId ?? '', link.person);
    if (target === undefined) throw new PasskeyError(409, 'this approval is no longer waiting for a vote');
    if (target.attempt !== shownAttempt)
      throw new PasskeyError(
        409,
        'a new quote came in since this page was opened: reload it and read it again',
      );
    return this.#assertionOptions(link, target);
  }

  /** The signed vote: the link is spent, then the executor counts the vote as a click would be. */
  async approvalFinish(token: string, response: unknown): Promise<ApprovalActionResult> {
    const link = await this.#claim(token, 'approve');
    if (link.challenge === null) throw new PasskeyError(409, 'this page never asked the passkey; reload it');
    return this.#exec.approve(link.approvalId ?? '', link.actor, undefined, {
      nonce: link.challenge,
      response,
    });
  }

  async rejectFinish(token: string, reason: string): Promise<ApprovalActionResult> {
    const link = await this.#claim(token, 'approve');
    return this.#exec.reject(link.approvalId ?? '', link.actor, reason);
  }

  // Break-glass (docs/approvals.md "Break-glass"), under `breakGlass.stepUp: passkey`.

  /**
   * A one-time link (5 minutes) for `actor` to confirm breaking the glass on an approval with their
   * passkey, the reason carried by the link. Refused, with the reason, when break-glass would be
   * refused now (the caller asks the engine first, audited: this check is not; a caller that hands
   * over what its check found, `ready`, is not asked again) or they have no passkey.
   */
  async breakGlassLink(
    approvalId: string,
    actor: Actor,
    reason: string,
    ready?: BreakGlassReady,
  ): Promise<IssuedLink> {
    ready ??= await this.#breakGlassReady(approvalId, actor, reason);
    const person = this.personOf(actor);
    try {
      await this.#hasPasskey(person, `break-glass on ${approvalId} needs your passkey`);
      const reasonSigned = ready.target.breakGlass?.reason ?? null;
      return await this.#issue('break_glass', person, actor, approvalId, reasonSigned, (tx, until) =>
        this.#audit.appendIn(tx, breakGlassAsked(ready, actor, person, until)),
      );
    } catch (error) {
      // No passkey yet, or no page to confirm it on (BANKOPS_PUBLIC_URL): refused, on record.
      if (error instanceof PasskeyError)
        await this.#audit.append(breakGlassRefused(ready, actor, error.message));
      throw error;
    }
  }

  /** The page: the approval as it stands, the reason and the cap, while break-glass may go ahead. */
  async breakGlassPage(token: string): Promise<BreakGlassPageData> {
    const link = await this.#usable(token, 'break_glass');
    const ready = await this.#breakGlassReady(link.approvalId ?? '', link.actor, link.reason ?? '');
    return {
      view: ready.approval,
      person: link.person,
      actor: link.actor,
      expiresAt: link.expiresAt,
      reason: link.reason ?? '',
      ...optional('cap', ready.cap),
    };
  }

  /** As `approvalOptions`: the challenge hashes the approval as it stands now, with the reason. */
  async breakGlassOptions(token: string, shownAttempt: number): Promise<unknown> {
    const link = await this.#usable(token, 'break_glass');
    const ready = await this.#breakGlassReady(link.approvalId ?? '', link.actor, link.reason ?? '');
    if (ready.target.attempt !== shownAttempt)
      throw new PasskeyError(
        409,
        'a new quote came in since this page was opened: reload it and read it again',
      );
    return this.#assertionOptions(link, ready.target);
  }

  /** The signed break-glass: the link is spent, then the executor judges it all again and runs it. */
  async breakGlassFinish(token: string, response: unknown): Promise<ApprovalActionResult> {
    const link = await this.#claim(token, 'break_glass');
    if (link.challenge === null) throw new PasskeyError(409, 'this page never asked the passkey; reload it');
    return this.#exec.breakGlass.breakGlass(link.approvalId ?? '', link.actor, link.reason ?? '', undefined, {
      nonce: link.challenge,
      response,
    });
  }

  /** Break-glass as the engine judges it now (not audited: nothing was tried yet), or why not. */
  async #breakGlassReady(approvalId: string, actor: Actor, reason: string): Promise<BreakGlassReady> {
    const checked = await this.#exec.breakGlass.breakGlassCheck(approvalId, actor, reason, false);
    if (checked.status === 'ready') return checked;
    throw new PasskeyError(checked.status === 'not_found' ? 404 : 409, checked.reason);
  }

  /** Refuses a link to a person without an active passkey, saying how to register one. */
  async #hasPasskey(person: string, why: string): Promise<void> {
    if ((await this.#storage.read((s) => s.credentials.active(person))).length > 0) return;
    throw new PasskeyError(
      409,
      `${why}, and ${person} has none yet: register one first (\`/bank passkey\` in Slack, or \`bankops people enroll ${person}\`)`,
    );
  }

  /** The options of `navigator.credentials.get` over `target` with a fresh nonce, kept on the link. */
  async #assertionOptions(link: Link, target: SignTarget): Promise<unknown> {
    const nonce = newNonce();
    await this.#storage.transaction((tx) => tx.links.setChallenge(link.digest, nonce));
    const active = await this.#storage.read((s) => s.credentials.active(link.person));
    const { generateAuthenticationOptions } = await webauthn();
    return generateAuthenticationOptions({
      rpID: this.rp().rpId,
      challenge: challengeOf({ ...target, nonce }),
      allowCredentials: active.map((passkey) => ({
        id: passkey.credentialId,
        transports: passkey.transports as never,
      })),
      userVerification: 'required',
      timeout: 120_000,
    });
  }

  /** Why no approval link is made for this actor: who may decide is the core's rule, then step-up itself. */
  #whyNot(view: ApprovalView, actor: Actor): string | undefined {
    const why = whyNotDecide(this.#exec.policy, actor, view);
    if (why !== undefined) return why;
    return view.stepUp === undefined ? `${view.id} needs no passkey: approve it as usual` : undefined;
  }

  async #issue(
    purpose: LinkPurpose,
    person: string,
    actor: Actor,
    approvalId: string | null,
    reason: string | null = null,
    /** Written in the transaction that stores the link (its audit entry). */
    alongside?: (tx: Stores, expiresAt: string) => Promise<unknown>,
  ): Promise<IssuedLink> {
    const rp = this.rp();
    const now = this.#now();
    const expiresAt = new Date(now.getTime() + LINK_TTL_MS[purpose]).toISOString();
    const token = newToken();
    await this.#storage.transaction(async (tx) => {
      await tx.links.prune(new Date(now.getTime() - 24 * 3600_000).toISOString());
      await tx.links.insert({
        digest: digestOf(token),
        purpose,
        person,
        actor,
        approvalId,
        reason,
        createdAt: now.toISOString(),
        expiresAt,
      });
      await alongside?.(tx, expiresAt);
    });
    return { url: `${rp.baseUrl}${PATHS[purpose]}${token}`, expiresAt };
  }

  /** The link, if it can still be used; otherwise why not. */
  async #usable(token: string, purpose: LinkPurpose): Promise<Link> {
    const link = looksLikeToken(token)
      ? await this.#storage.read((s) => s.links.find(digestOf(token), purpose))
      : undefined;
    if (link === undefined) throw new PasskeyError(404, 'this link is not valid; ask for a new one');
    if (link.usedAt !== null) throw new PasskeyError(410, 'this link was already used; ask for a new one');
    if (link.expiresAt <= this.#now().toISOString())
      throw new PasskeyError(410, 'this link has expired; ask for a new one');
    return link;
  }

  /** Spends the link (once, whoever comes first). */
  async #claim(token: string, purpose: LinkPurpose): Promise<Link> {
    const link = await this.#usable(token, purpose);
    // Committed without an fsync of its own: the vote or passkey it leads to is committed with one
    // right after, which puts this claim on disk too; a power cut before that loses a claim that led
    // to nothing.
    const at = this.#now().toISOString();
    const claimed = await this.#storage.transaction((tx) => tx.links.claim(link.digest, at), {
      durable: false,
    });
    if (!claimed) throw new PasskeyError(410, 'this link was already used; ask for a new one');
    return link;
  }
}
