import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/core/actors.js';
import { enrolPage } from '../../src/web/enrol-page.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { runCliHere } from '../helpers/cli.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { SoftPasskey } from '../helpers/soft-passkey.js';
import { stepUpCliEnv, stepUpPolicyYaml } from '../helpers/step-up.js';

/**
 * The CLI side of step-up: `bankops approvals approve` prints the approval page's link and exits 5,
 * `bankops people enroll|passkeys|revoke-passkey`, and a step-up policy refused without an https
 * public URL. The CLI runs in this process (`main(argv, io)`) on the same database and sandbox; the
 * binary's own runs are test/web/passkeys-browser.test.ts's.
 */

const ORIGIN = 'http://localhost:4998';
let c: TestCore;
let env: Record<string, string>;

beforeAll(async () => {
  c = await createTestCore({ policyYaml: stepUpPolicyYaml(), publicUrl: ORIGIN });
  env = stepUpCliEnv(c, ORIGIN);
});
afterAll(async () => {
  await c?.close();
});

describe('bankops people and approvals approve under step-up', () => {
  it('refuses a step-up policy without an https public URL', async () => {
    const { BANKOPS_PUBLIC_URL: _url, ...without } = env;
    const run = await runCliHere(['approvals', 'list'], without);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('approval.stepUp: passkey confirmation needs an https BANKOPS_PUBLIC_URL');
    const plain = await runCliHere(['approvals', 'list'], {
      ...env,
      BANKOPS_PUBLIC_URL: 'http://bankops.example.com',
    });
    expect(plain.stderr).toContain('is not https');
  });

  it('enroll prints a one-time link; passkeys lists; revoke-passkey revokes (audited)', async () => {
    const enroll = await runCliHere(['people', 'enroll', 'cli:approver', '--json'], env);
    expect(enroll.code).toBe(0);
    expect(enroll.json.url).toMatch(new RegExp(`^${ORIGIN}/passkeys/enroll/[A-Za-z0-9_-]{43}$`));

    const token = String(enroll.json.url).split('/').at(-1) ?? '';
    // The page names the person as people read them, not the actor id.
    const page = enrolPage(await c.runtime.passkeys.enrolPage(token));
    expect(page).toContain('For <strong>approver (CLI)</strong>');
    expect(page).not.toContain('cli:approver');
    const key = new SoftPasskey(ORIGIN);
    const options = (await c.runtime.passkeys.enrolOptions(token)) as { challenge: string };
    await c.runtime.passkeys.enrolFinish(token, 'laptop', key.register(options));

    const list = await runCliHere(['people', 'passkeys', 'cli:approver'], { ...env, BANKOPS_OUTPUT: 'text' });
    expect(list.stdout).toMatch(/Name\s+Created\s+Last used/);
    expect(list.stdout).toMatch(/laptop\s+\S+\s+never/);

    const enrolled = (await c.audit.list({ tool: 'passkey' })).at(-1);
    expect(enrolled).toMatchObject({ decision: 'enrolled', actor: 'cli:admin' });
    expect(JSON.stringify(await c.audit.list({ limit: 1000 }))).not.toContain(token);
  });

  it('approve prints the approval page link and exits 5; nothing is recorded', async () => {
    const approval = pending(await c.call('create_payout', { ...PAYOUT, amount: 900 }));
    const run = await runCliHere(['approvals', 'approve', approval.id, '--as', 'approver'], {
      ...env,
      BANKOPS_OUTPUT: 'text',
    });
    expect(run.code).toBe(5);
    expect(run.stdout).toContain(`${approval.id} needs your vote confirmed with a passkey`);
    expect(run.stdout).toMatch(new RegExp(`${ORIGIN}/approve/[A-Za-z0-9_-]{43}`));
    expect(await c.executor.getApproval(approval.id)).toMatchObject({ state: 'pending', approvals: [] });

    const json = await runCliHere(['approvals', 'approve', approval.id, '--as', 'approver', '--json'], env);
    expect(json.json).toMatchObject({ status: 'step_up', url: expect.stringContaining('/approve/') });

    const none = await runCliHere(['approvals', 'approve', approval.id, '--as', 'approver2'], env);
    expect(none.code).toBe(3);
    expect(none.stdout).toContain('has none yet');
  });

  it('revoke-passkey names what there is when the name is wrong', async () => {
    const wrong = await runCliHere(['people', 'revoke-passkey', 'cli:approver', 'phone'], env);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(
      /cli:approver has no passkey named "phone" in (the SQLite file \S+|PostgreSQL at \S+); theirs: "laptop"/,
    );
    const ok = await runCliHere(['people', 'revoke-passkey', 'cli:approver', 'laptop'], env);
    expect(ok.code).toBe(0);
    expect(await c.runtime.passkeys.list('cli:approver')).toEqual([]);
    expect((await c.audit.list({ tool: 'passkey' })).at(-1)).toMatchObject({
      decision: 'revoked',
      actor: 'cli:admin',
    });
    await expect(c.runtime.passkeys.approvalLink('apr_x', cliActor('approver'))).rejects.toThrow(
      'no approval',
    );
  });
});
