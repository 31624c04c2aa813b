import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../../src/core/actors.js';
import { checkAssertion } from '../../../src/core/passkeys/assertion.js';
import { challengeOf } from '../../../src/core/passkeys/challenge.js';
import { PasskeyError, verifySignatures } from '../../../src/core/passkeys/index.js';
import { PolicyStore } from '../../../src/core/policy/index.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { runCliHere } from '../../helpers/cli.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';
import { raw } from '../../helpers/sandbox.js';
import { SoftPasskey } from '../../helpers/soft-passkey.js';
import { stepUpCliEnv, stepUpPolicyYaml } from '../../helpers/step-up.js';

/**
 * Step-up with passkeys in the core: enrolment, a vote that counts only with a signature over what
 * would run, and every refusal (a bare vote, a replay, another approval, a counter going backwards,
 * a re-quote, the requester), then the audit log re-checked offline. Real signatures from a software
 * authenticator; the browser flow is test/web/passkeys-browser.test.ts.
 */

const ORIGIN = 'http://localhost:4999';
const tokenOf = (url: string): string => url.slice(url.lastIndexOf('/') + 1);
let c: TestCore;
const alice = new SoftPasskey(ORIGIN);
const bob = new SoftPasskey(ORIGIN);

async function enrol(key: SoftPasskey, person: string, name: string): Promise<void> {
  const link = await c.runtime.passkeys.enrolLink(person, cliActor('admin'));
  const options = (await c.runtime.passkeys.enrolOptions(tokenOf(link.url))) as { challenge: string };
  await c.runtime.passkeys.enrolFinish(tokenOf(link.url), name, key.register(options));
}

/** Opens the approval page as `actor`, asks the passkey's options, and signs them. */
async function signFor(id: string, actor = c.approver, key = alice) {
  const link = await c.runtime.passkeys.approvalLink(id, actor);
  const token = tokenOf(link.url);
  const page = await c.runtime.passkeys.approvalPage(token);
  const options = (await c.runtime.passkeys.approvalOptions(token, page.view.attempt)) as {
    challenge: string;
  };
  return { token, response: key.sign(options) };
}

const payout = async (amount = 1000, extra: Record<string, unknown> = {}) =>
  pending(await c.call('create_payout', { ...PAYOUT, amount, ...extra }));

beforeAll(async () => {
  c = await createTestCore({ policyYaml: stepUpPolicyYaml(), publicUrl: ORIGIN });
  await enrol(alice, 'cli:approver', 'laptop');
  await enrol(bob, 'cli:approver2', 'phone');
});
afterAll(async () => {
  await c?.close();
});

describe('policy', () => {
  it('is refused at load when it asks for step-up without an https public URL (localhost allowed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bankops-stepup-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, stepUpPolicyYaml());
    try {
      for (const url of [undefined, 'http://bankops.example.com', 'http://10.0.0.5:8080']) {
        expect(() => PolicyStore.load(file, { publicUrl: url })).toThrow(
          /rules\[\d+\]\.approval\.stepUp: passkey confirmation needs an https BANKOPS_PUBLIC_URL/,
        );
      }
      for (const url of ['https://bankops.example.com', 'http://localhost:3000', 'http://127.0.0.1:3000'])
        expect(PolicyStore.load(file, { publicUrl: url }).current().rules.length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is refused at load when a payee cooling-off asks for step-up without an https public URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bankops-stepup-'));
    const file = join(dir, 'policy.yaml');
    const shipped = readFileSync(
      join(import.meta.dirname, '..', '..', '..', 'policy', 'default.yaml'),
      'utf8',
    );
    writeFileSync(file, `${shipped}\npayees:\n  coolingOff: { period: 24h, action: stepUp }\n`);
    try {
      expect(() => PolicyStore.load(file, { publicUrl: undefined })).toThrow(
        /payees\.coolingOff\.action: stepUp: passkey confirmation needs an https BANKOPS_PUBLIC_URL.*or choose refuse or extraApprover/,
      );
      expect(
        PolicyStore.load(file, { publicUrl: 'https://bankops.example.com' }).current().payees,
      ).toMatchObject({
        coolingOff: { action: 'stepUp' },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the previous policy when a reload asks for step-up without an https public URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bankops-stepup-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, stepUpPolicyYaml().replaceAll('stepUp: passkey', ''));
    try {
      const store = PolicyStore.load(file, { publicUrl: 'http://bankops.example.com' });
      writeFileSync(file, stepUpPolicyYaml());
      const reloaded = store.reload();
      expect(reloaded.ok).toBe(false);
      expect(store.current().rules.some((rule) => rule.approval?.stepUp !== undefined)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records the requirement with the approval and says it in the reason', async () => {
    const approval = await payout(1001);
    expect(approval.stepUp).toBe('passkey');
    expect(approval.reason).toContain('each confirming with a passkey');
  });
});

describe('enrolment', () => {
  it('lists passkeys by name and audits the enrolment with the public key', async () => {
    expect(await c.runtime.passkeys.list('cli:approver')).toEqual([
      expect.objectContaining({ name: 'laptop', credentialId: alice.id }),
    ]);
    const entry = (await c.audit.list({ tool: 'passkey' })).find((e) => e.decision === 'enrolled');
    expect(entry).toMatchObject({
      event: 'credential',
      actor: 'cli:admin',
      input: { person: 'cli:approver', name: 'laptop', credentialId: alice.id, origin: ORIGIN },
    });
    expect(JSON.stringify(await c.audit.list())).not.toContain('/passkeys/enroll/');
  });

  it('uses a link once, and refuses a link that expired or was never issued', async () => {
    const link = await c.runtime.passkeys.enrolLink('cli:approver', cliActor('admin'));
    const token = tokenOf(link.url);
    const options = (await c.runtime.passkeys.enrolOptions(token)) as { challenge: string };
    const key = new SoftPasskey(ORIGIN);
    await c.runtime.passkeys.enrolFinish(token, 'spare', key.register(options));
    await expect(c.runtime.passkeys.enrolFinish(token, 'again', key.register(options))).rejects.toThrow(
      'already used',
    );
    await expect(c.runtime.passkeys.enrolPage('A'.repeat(43))).rejects.toThrow('not valid');
    await c.runtime.passkeys.revoke('cli:approver', 'spare', cliActor('admin'));
    expect((await c.runtime.passkeys.list('cli:approver')).map((p) => p.name)).toEqual(['laptop']);
  });
});

describe('a step-up vote', () => {
  it('does not count without a passkey, and is audited as refused', async () => {
    const approval = await payout(1002);
    const result = await c.executor.approve(approval.id, c.approver);
    expect(result).toMatchObject({ status: 'refused', approval: { state: 'pending', approvals: [] } });
    expect(result.status === 'refused' && result.reason).toContain('a click alone does not count');
    expect((await c.audit.list({ approvalId: approval.id })).at(-1)).toMatchObject({ decision: 'refused' });
  });

  it('counts with a signature over what would run, executes, and keeps the assertion in the vote and the audit', async () => {
    const approval = await payout(1003);
    const { token, response } = await signFor(approval.id);
    const result = await c.runtime.passkeys.approvalFinish(token, response);
    expect(result).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded', approvals: [{ person: 'cli:approver', signed: true }] },
    });
    const vote = (await c.audit.list({ approvalId: approval.id })).find((e) => e.decision === 'approved');
    expect(vote?.evidence).toMatchObject({
      kind: 'passkey',
      credentialId: alice.id,
      signed: { approvalId: approval.id, attempt: 1, person: 'cli:approver', tool: 'create_payout' },
    });
    expect((await c.runtime.passkeys.list('cli:approver'))[0]?.lastUsedAt).toBeDefined();
    // `approvals show` says the vote was confirmed with a passkey.
    const shown = await runCliHere(['approvals', 'show', approval.id], {
      ...stepUpCliEnv(c, ORIGIN),
      BANKOPS_OUTPUT: 'text',
    });
    expect(shown.stdout).toMatch(/Approved by +approver \(CLI\) with passkey\n/);
  });

  it('refuses a replayed assertion, on the same link and on a new one', async () => {
    const approval = await payout(1004);
    const first = await signFor(approval.id, c.approver2, bob);
    await expect(c.runtime.passkeys.approvalFinish(first.token, first.response)).resolves.toMatchObject({
      status: 'ok',
    });
    const again = await payout(1005);
    await expect(c.runtime.passkeys.approvalFinish(first.token, first.response)).rejects.toThrow(
      PasskeyError,
    );
    const fresh = await signFor(again.id, c.approver2, bob);
    // The old assertion on a new link: the challenge (another approval, another nonce) does not match.
    const replayed = await c.runtime.passkeys.approvalFinish(fresh.token, first.response);
    expect(replayed.status).toBe('refused');
    expect(replayed.status === 'refused' && replayed.reason).toContain('signed something else');
  });

  it('refuses an assertion made for another approval, and a passkey of another person', async () => {
    const one = await payout(1006);
    const two = await payout(1007);
    const forOne = await signFor(one.id);
    const linkTwo = await c.runtime.passkeys.approvalLink(two.id, c.approver);
    const tokenTwo = tokenOf(linkTwo.url);
    await c.runtime.passkeys.approvalOptions(tokenTwo, 1);
    const foreign = await c.runtime.passkeys.approvalFinish(tokenTwo, forOne.response);
    expect(foreign.status === 'refused' && foreign.reason).toContain('signed something else');

    const other = await signFor(one.id, c.approver, bob);
    const wrongPerson = await c.runtime.passkeys.approvalFinish(other.token, other.response);
    expect(wrongPerson.status === 'refused' && wrongPerson.reason).toContain('belongs to cli:approver2');
  });

  it('gives the requester no link', async () => {
    const approval = await payout(1008);
    await expect(c.runtime.passkeys.approvalLink(approval.id, c.operator)).rejects.toThrow('you asked for');
  });

  it('refuses and audits a signature counter that goes backwards', async () => {
    const approval = await payout(1009);
    const { token } = await signFor(approval.id);
    alice.counter = 0; // a cloned authenticator starts from an old counter
    const link = await c.runtime.passkeys.approvalPage(token);
    const options = (await c.runtime.passkeys.approvalOptions(token, link.view.attempt)) as {
      challenge: string;
    };
    const result = await c.runtime.passkeys.approvalFinish(token, alice.sign(options));
    expect(result.status === 'refused' && result.reason).toContain('went backwards');
    expect((await c.audit.list({ approvalId: approval.id })).at(-1)).toMatchObject({
      decision: 'refused',
      error: expect.stringContaining('signature counter'),
    });
    alice.counter = 1000;
  });

  it('is void once a new quote replaces the one it signed', async () => {
    const approval = await payout(1000, { destinationAssetCode: 'EUR', side: 'TARGET' });
    const early = await signFor(approval.id, c.approver2, bob);
    const moved = await raw(c.sandbox, 'POST', '/_sandbox/banking/rates', {
      headers: { 'content-type': 'application/json' },
      body: { rates: { EUR: 1.085 * 1.1 } },
    });
    expect(moved.status).toBe(200);
    const first = await signFor(approval.id);
    await expect(c.runtime.passkeys.approvalFinish(first.token, first.response)).resolves.toMatchObject({
      status: 'ok',
      approval: { state: 'pending', attempt: 2 },
    });
    const late = await c.runtime.passkeys.approvalFinish(early.token, early.response);
    expect(late).toMatchObject({ status: 'refused', approval: { attempt: 2, approvals: [] } });
  });
});

describe('audit verify --signatures', () => {
  it('re-checks every signed vote offline, and names one whose signature was edited', async () => {
    const clean = await verifySignatures(await c.audit.list({ limit: 1000 }));
    expect(clean.checked).toBeGreaterThanOrEqual(3);
    expect(clean.failures).toEqual([]);

    const db = new Database(c.dbPath);
    try {
      const row = db
        .prepare('SELECT seq, evidence FROM audit_log WHERE evidence IS NOT NULL ORDER BY seq LIMIT 1')
        .get() as { seq: number; evidence: string };
      const evidence = JSON.parse(row.evidence) as { assertion: { signature: string } };
      const bytes = Buffer.from(evidence.assertion.signature, 'base64url');
      bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 1;
      evidence.assertion.signature = bytes.toString('base64url');
      db.exec('DROP TRIGGER audit_log_no_update');
      db.prepare('UPDATE audit_log SET evidence = ? WHERE seq = ?').run(JSON.stringify(evidence), row.seq);
      const tampered = await verifySignatures(await c.audit.list({ limit: 1000 }));
      expect(tampered.failures).toEqual([expect.objectContaining({ seq: row.seq })]);
      expect(await c.audit.verify()).toMatchObject({ ok: false, firstBrokenSeq: row.seq });
    } finally {
      db.close();
    }
  });
});

describe('an assertion', () => {
  // What a vote signs, and a fresh authenticator's answers to it, each breaking one rule: bankops
  // reads what the answer claims before the library checks the signature, so each has its code.
  const key = new SoftPasskey(ORIGIN);
  const signed = {
    approvalId: 'apr_test',
    attempt: 1,
    tool: 'create_payout',
    input: { amount: 1000 },
    bound: null,
    person: 'alice',
    nonce: 'n0nce',
  };
  const check = (response: Record<string, unknown>, over = signed) => {
    const assertion = (response as { response: Record<string, string> }).response;
    return checkAssertion({
      credentialId: key.id,
      publicKey: key.publicKey,
      signed: over,
      assertion: {
        authenticatorData: assertion.authenticatorData ?? '',
        clientDataJSON: assertion.clientDataJSON ?? '',
        signature: assertion.signature ?? '',
      },
      origin: ORIGIN,
      rpId: 'localhost',
    });
  };
  const challenge = Buffer.from(challengeOf(signed)).toString('base64url');

  it('verifies one that keeps every rule, and names the rule each other one breaks', async () => {
    expect(await check(key.sign({ challenge }))).toEqual({ ok: true, counter: key.counter });
    const cases: [Record<string, unknown>, string, string][] = [
      [key.sign({ challenge }, ORIGIN, { type: 'webauthn.create' }), 'not_an_assertion', 'not an assertion'],
      [key.sign({ challenge: 'c29tZXRoaW5nIGVsc2U' }), 'challenge', 'signed something else'],
      [key.sign({ challenge }, 'https://bank0ps.example'), 'origin', 'on another site'],
      [key.sign({ challenge }, ORIGIN, { rpId: 'bank0ps.example' }), 'rp_id', 'another relying party'],
      [key.sign({ challenge }, ORIGIN, { flags: 0x04 }), 'user_presence', 'without the person present'],
      [key.sign({ challenge }, ORIGIN, { flags: 0x01 }), 'user_verification', 'did not verify the user'],
    ];
    for (const [response, refusal, words] of cases) {
      const result = await check(response);
      expect(result).toMatchObject({ ok: false, refusal });
      expect(result.ok === false && result.reason).toContain(words);
    }
  });

  it('refuses a signature that does not match, and an answer that cannot be read', async () => {
    const response = key.sign({ challenge }) as { response: Record<string, string> };
    const bytes = Buffer.from(response.response.signature ?? '', 'base64url');
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 1;
    const forged = { response: { ...response.response, signature: bytes.toString('base64url') } };
    expect(await check(forged)).toMatchObject({ ok: false, refusal: 'signature' });
    const cut = { response: { ...response.response, authenticatorData: 'AAAA' } };
    expect(await check(cut)).toMatchObject({ ok: false, refusal: 'unreadable' });
  });
});
