import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../../src/core/actors.js';
import { parsePolicyText } from '../../../src/core/policy/index.js';
import { policyHash } from '../../../src/core/policy/versions.js';
import { PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

// Every decision's audit entries name the policy version and hash that decided it, through the
// executor of a runtime on SQLite; a reload is a new version from the next decision on.

const SHIPPED = readFileSync(fileURLToPath(new URL('../../../policy/default.yaml', import.meta.url)), 'utf8');
const ONE_APPROVER = SHIPPED.replace(
  /(name: large-payouts[\s\S]*?approvers: )2/,
  (_match, head: string) => `${head}1`,
);
const big = { ...PAYOUT, beneficiaryId: 'ben_us_ach_0001', destinationRail: 'ACH', amount: 50_000 };

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore({ policyYaml: SHIPPED });
});
afterAll(() => core.close());

const lastEntries = async (n: number) => (await core.audit.list({ order: 'desc', limit: n })).reverse();

describe('the version that decided, in the audit log', () => {
  it('names version and hash in the entries of a read, a request and a vote; a reload is the next version', async () => {
    const v1 = { version: 1, hash: policyHash(parsePolicyText(SHIPPED, 'shipped')) };
    expect(core.policy.stamp()).toEqual(v1);
    await core.ok('list_accounts');
    expect((await lastEntries(1))[0]).toMatchObject({ tool: 'list_accounts', policy: v1 });

    const approval = pending(await core.call('create_payout', big));
    expect(approval.requiredApprovers).toBe(2);
    expect((await lastEntries(1))[0]).toMatchObject({ event: 'requested', policy: v1 });

    writeFileSync(core.policy.path, ONE_APPROVER);
    expect(core.policy.reload()).toEqual({ ok: true });
    const v2 = { version: 2, hash: policyHash(parsePolicyText(ONE_APPROVER, 'edited')) };
    expect(v2.hash).not.toBe(v1.hash);
    // The vote is decided by version 2 (the approval keeps the two approvers it was opened with).
    expect(await core.executor.approve(approval.id, core.approver)).toMatchObject({ status: 'ok' });
    const vote = (await core.audit.list({ approvalId: approval.id })).find((e) => e.event === 'decided');
    expect(vote?.policy).toEqual(v2);
    const after = pending(await core.call('create_payout', big, cliActor('carol')));
    expect(after.requiredApprovers).toBe(1);
    expect((await lastEntries(1))[0]).toMatchObject({ event: 'requested', policy: v2 });

    const history = await core.runtime.storage.read((s) => s.policies.list());
    expect(history.map((v) => [v.version, v.hash, v.text])).toEqual([
      [1, v1.hash, SHIPPED],
      [2, v2.hash, ONE_APPROVER],
    ]);
    expect(await core.audit.verify()).toMatchObject({ ok: true });
  });
});
