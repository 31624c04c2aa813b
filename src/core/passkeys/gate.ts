import type { SignTarget, StepUpCheck, StepUpGate, StepUpProof, VoteEvidence } from '../approvals/step-up.js';
import { optional } from '../optional.js';
import type { Storage, Stores } from '../store/index.js';
import { AuthenticationResponseSchema, checkAssertion } from './assertion.js';
import type { RelyingParty } from './relying-party.js';

/**
 * The approvals engine's step-up check (`StepUpGate`): the assertion must come from an active
 * passkey of the voter's person, over the hash of what would run with the page's nonce, on bankops's
 * origin, user verified; inside the vote's transaction its counter must move forward.
 */
export class PasskeyGate implements StepUpGate {
  constructor(
    private readonly storage: Storage,
    private readonly rp: () => RelyingParty,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async verify(target: SignTarget, proof: StepUpProof): Promise<StepUpCheck<VoteEvidence>> {
    const parsed = AuthenticationResponseSchema.safeParse(proof.response);
    if (!parsed.success) return { ok: false, reason: 'the passkey answer is not a WebAuthn assertion' };
    const response = parsed.data;
    const credential = await this.storage.read((s) => s.credentials.byId(response.id));
    if (credential === undefined || credential.revokedAt !== null)
      return { ok: false, reason: 'this passkey is not registered with bankops (or was revoked)' };
    if (credential.person !== target.person)
      return { ok: false, reason: `this passkey belongs to ${credential.person}, not to ${target.person}` };
    const rp = this.rp();
    const signed = { ...target, nonce: proof.nonce };
    const assertion = {
      authenticatorData: response.response.authenticatorData,
      clientDataJSON: response.response.clientDataJSON,
      signature: response.response.signature,
      ...optional('userHandle', response.response.userHandle),
    };
    const checked = await checkAssertion({
      credentialId: credential.credentialId,
      publicKey: credential.publicKey,
      signed,
      assertion,
      origin: rp.origin,
      rpId: rp.rpId,
    });
    if (!checked.ok) return checked;
    return {
      ok: true,
      value: {
        kind: 'passkey',
        credentialId: credential.credentialId,
        rpId: rp.rpId,
        origin: rp.origin,
        counter: checked.counter,
        signed,
        assertion,
      },
    };
  }

  async commit(tx: Stores, evidence: VoteEvidence): Promise<StepUpCheck<undefined>> {
    const credential = await tx.credentials.byId(evidence.credentialId);
    if (credential === undefined || credential.revokedAt !== null)
      return { ok: false, reason: `passkey ${evidence.credentialId} was revoked meanwhile` };
    if (!(await tx.credentials.used(evidence.credentialId, evidence.counter, this.now().toISOString()))) {
      return {
        ok: false,
        reason: `the signature counter of passkey "${credential.name}" of ${credential.person} went backwards or stood still (${evidence.counter} after ${credential.counter}): a replayed or cloned authenticator; the passkey stays registered, check it`,
      };
    }
    return { ok: true, value: undefined };
  }
}
