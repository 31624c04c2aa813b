import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { PgStore } from '../../src/core/store/postgres/pool.js';
import { until } from '../helpers/approvals.js';
import { runCli } from '../helpers/cli.js';
import { useTestDatabase } from '../helpers/postgres.js';
import {
  approvalPost,
  approvalsPolicyYaml,
  PEOPLE,
  shown,
  waitShown,
  whereIs,
} from '../helpers/slack-approvals.js';
import { buttonsOf, textOf } from '../helpers/slack-requests.js';
import { type ReplicaSet, type ServeProcess, startReplicaSet } from './serve-process.js';

// A governed policy on two `bankops serve` replicas (PostgreSQL): a file edited on one replica
// changes nothing; a change proposed at the CLI waits for two admins other than its proposer, who
// read it in Slack in words; once approved, both replicas decide by the new version (woken by
// NOTIFY), and the audit names the version of each decision.

const ADMINS = { bob: 'U0ADMINBOB', carol: 'U0ADMINCAROL' } as const;

/** The shipped rules for the Slack people of the tests, plus three admins and governance. */
function governedYaml(largeApprovers: number): string {
  const policy = parse(approvalsPolicyYaml()) as {
    actors: unknown[];
    rules: { name?: string; approval?: { approvers: number } }[];
    governance?: unknown;
  };
  policy.governance = { approvers: 2, role: 'admin' };
  policy.actors.unshift(
    { match: { cli: 'alice' }, roles: ['admin', 'viewer'], person: 'alice' },
    { match: { slackUser: ADMINS.bob }, roles: ['admin', 'viewer'], person: 'bob' },
    { match: { slackUser: ADMINS.carol }, roles: ['admin', 'viewer'], person: 'carol' },
  );
  for (const rule of policy.rules)
    if (rule.name === 'large-payouts' && rule.approval !== undefined)
      rule.approval.approvers = largeApprovers;
  return stringify(policy);
}

const payoutOf = (amount: number): string =>
  `payout ${amount} USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH purposeCode=GOODS_PURCHASED`;

describe('a governed policy change on two serve replicas (PostgreSQL)', () => {
  const database = useTestDatabase();
  let set: ReplicaSet;
  let a: ServeProcess;
  let b: ServeProcess;
  let fileOfB: string;
  let proposal: string;

  // One pool for the test's own reads: one per read (they poll) would keep a connection each.
  let reads: PgStore | undefined;
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    reads ??= database.store();
    return (await reads.pool.query(sql, params)).rows as T[];
  };

  /** `bankops …` at the command line of a host of its own, on the shared database. */
  const cli = (args: string[], policyFile: string) =>
    runCli([...args, '--json'], {
      HOME: set.dir,
      BANKOPS_DATABASE_URL: database.url(),
      BANKOPS_FINGERPRINT_KEY_FILE: set.keyFile,
      BANKOPS_BASE_URL: set.sandbox.url,
      BANKOPS_POLICY: policyFile,
    });

  /** `/bank payout …` as Olivia through `replica`: the approval it opened and what it says. */
  /** A different amount each time: an identical request would join the approval already open. */
  let amount = 60_000;
  async function payout(replica: ServeProcess): Promise<{ id: string; text: string }> {
    amount += 1;
    const { id } = await replica.slack.command(PEOPLE.olivia, payoutOf(amount));
    const text = await set.api.waitFor(() =>
      set.api
        .answersTo(id)
        .map((post) => textOf(post.body))
        .find((t) => /apr_\w+/.test(t)),
    );
    return { id: /apr_\w+/.exec(text)?.[0] ?? '', text };
  }

  const requiredOf = async (approval: string): Promise<number> =>
    (await query<{ n: number }>('SELECT required_approvers AS n FROM approvals WHERE id = $1', [approval]))[0]
      ?.n ?? -1;

  async function approve(replica: ServeProcess, user: string, approval: string): Promise<void> {
    await set.api.waitFor(() => approvalPost(set.api, approval), 15_000);
    const button = buttonsOf(shown(set.api, approval) ?? {}).find((x) => x.text === 'Approve');
    if (button === undefined) throw new Error(`no Approve on ${approval}`);
    const { response } = await replica.slack.click(user, button, {
      channel: whereIs(set.api, approval)?.channel ?? '',
    });
    expect(response.status).toBe(200);
  }

  beforeAll(async () => {
    set = await startReplicaSet({ databaseUrl: database.url(), policyYaml: governedYaml(2) });
    a = await set.start('replica-a');
    fileOfB = join(set.dir, 'policy-of-b.yaml');
    writeFileSync(fileOfB, governedYaml(2));
    b = await set.start('replica-b', { BANKOPS_POLICY: fileOfB });
  });
  afterAll(async () => {
    expect(set?.api.problems ?? []).toEqual([]);
    await set?.close();
  });

  it('changes nothing when the file of one replica is edited', async () => {
    writeFileSync(fileOfB, governedYaml(1));
    await until(
      () => b.logs().some((line) => String(line.message).includes('differs from version 1 in force')),
      'replica B to see its edited file',
    );
    for (const replica of [a, b]) {
      const { id } = await payout(replica);
      expect(await requiredOf(id)).toBe(2);
    }
    expect(await query('SELECT version FROM policy_versions')).toEqual([{ version: 1 }]);
  });

  it('refuses an invalid proposal and opens nothing', async () => {
    const broken = join(set.dir, 'broken.yaml');
    writeFileSync(broken, `${governedYaml(1)}\nbogus: 1\n`);
    const refused = await cli(['policy', 'propose', broken, '--as', 'alice'], fileOfB);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('bogus: unknown key');
    expect(await query("SELECT id FROM approvals WHERE tool = 'propose_policy'")).toEqual([]);
  });

  it('opens a change that says in Slack, in words, what it does; the proposer cannot vote on it', async () => {
    const proposed = await cli(
      ['policy', 'propose', fileOfB, '--as', 'alice', '--reason', 'one is enough'],
      fileOfB,
    );
    expect(proposed.code).toBe(0);
    expect(proposed.json).toMatchObject({ status: 'pending_approval', tool: 'propose_policy' });
    proposal = proposed.json.approvalId;

    const message = textOf(await waitShown(set.api, proposal, 'FEWER people must approve', 15_000));
    expect(message).toContain('rule "large-payouts": approvers 2 → 1 (FEWER people must approve)');
    expect(message).toContain('opened under policy version 1');

    const own = await cli(['approvals', 'approve', proposal, '--as', 'alice'], fileOfB);
    expect(own.code).not.toBe(0);
    expect(`${own.stdout}${own.stderr}`).toMatch(/alice/);
    await approve(a, ADMINS.bob, proposal);
    await waitShown(set.api, proposal, /1 of 2/, 15_000);
    expect(await query('SELECT version FROM policy_versions')).toEqual([{ version: 1 }]);
  });

  it('puts it in force on the second approval; both replicas then decide by version 2', async () => {
    await approve(b, ADMINS.carol, proposal);
    await until(async () => (await query('SELECT version FROM policy_versions')).length === 2, 'version 2');
    const [version] = await query<{ proposed_by: string; approved_by: string; source: string }>(
      'SELECT proposed_by, approved_by, source FROM policy_versions WHERE version = 2',
    );
    expect(version).toEqual({
      proposed_by: 'alice',
      approved_by: JSON.stringify(['bob', 'carol']),
      source: `proposal:${proposal}`,
    });
    // Each replica says when it puts version 2 in force (NOTIFY wakes it; its 5-second look is the fallback).
    for (const replica of [a, b])
      await until(
        () => replica.logs().some((line) => line.message === 'policy version in force' && line.version === 2),
        `${replica.name} to decide by version 2`,
      );
    for (const replica of [a, b]) {
      const { id } = await payout(replica);
      expect(await requiredOf(id)).toBe(1);
    }
    // The audit names the version of each decision: two payouts asked under 1, two under 2.
    const asked = await query<{ policy: string }>(
      "SELECT policy FROM audit_log WHERE tool = 'create_payout' AND event = 'requested' ORDER BY seq",
    );
    expect(asked.map((row) => JSON.parse(row.policy).version)).toEqual([1, 1, 2, 2]);
  });
});
