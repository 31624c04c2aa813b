import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { startServe } from '../../src/app/serve.js';
import { cliActor, mcpStdioActor, slackActor } from '../../src/core/actors.js';
import type { Actor } from '../../src/core/policy/types.js';
import { runCli } from '../helpers/cli.js';
import { runtimeOptions, sqliteOf, testConfig } from '../helpers/core.js';
import { type SlackTest, startSlackTest } from '../helpers/slack-app.js';
import {
  APPROVALS_CHANNEL,
  APPROVERS,
  APPROVERS_GROUP,
  approvalPost,
  approvalPosts,
  approvalsPolicyYaml,
  clickButton,
  cliEnvFor,
  directMessages,
  openPayoutForm,
  PEOPLE,
  waitShown,
  whereIs,
} from '../helpers/slack-approvals.js';
import { buttonsOf, textOf } from '../helpers/slack-requests.js';

/**
 * Approvals reach Slack from the change feed whatever opened them and whichever process changed
 * them; a restart posts nothing twice and misses nothing; Slack's failures are retried in order.
 */

let t: SlackTest;

beforeAll(async () => {
  t = await startSlackTest({
    policyYaml: approvalsPolicyYaml(),
    config: { approvalsChannel: APPROVALS_CHANNEL },
  });
  t.api.setGroups({ [APPROVERS_GROUP]: APPROVERS });
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
});

let amount = 100;
/** A payout of its own amount (an identical request would join an earlier approval). */
function payoutInput(): Record<string, unknown> {
  amount += 1;
  return {
    beneficiaryId: 'ben_us_ach_0001',
    sourceAccountId: 'acc_usd_0001',
    sourceAssetCode: 'USD',
    destinationRail: 'ACH',
    amount,
    side: 'SOURCE',
    purposeCode: 'GOODS_PURCHASED',
  };
}

/** `bankops call create_payout` in a process of its own, as Olivia at her terminal. */
async function requestWithCli(): Promise<string> {
  const run = await runCli(
    ['call', 'create_payout', '--input', JSON.stringify(payoutInput())],
    cliEnvFor(t, 'olivia'),
  );
  expect(run.code, run.stderr).toBe(0);
  expect(run.json.status).toBe('pending_approval');
  return run.json.approval.id as string;
}

/** The same request made through this process's executor (as an assistant over MCP would). */
async function requestInProcess(
  runtime: Runtime = t.runtime,
  actor: Actor = cliActor('olivia'),
): Promise<string> {
  const result = await runtime.executor.execute({ tool: 'create_payout', input: payoutInput(), actor });
  if (result.status !== 'pending_approval') throw new Error(JSON.stringify(result));
  return result.approval.id;
}

/** A click on the approval message's button, as Slack sends it. */
const click = (user: string, approvalId: string, label: string): Promise<string> =>
  clickButton(t, user, approvalId, label);

describe('approvals from other processes', () => {
  it('opened by `bankops call` in another process: posted; approved with `bankops approvals approve`: updated, requester told in Slack', async () => {
    const id = await requestWithCli();
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    expect(post.args.channel).toBe(APPROVALS_CHANNEL);
    expect(textOf(post.args)).toContain(`<@${PEOPLE.olivia}> (as olivia, CLI)`);

    const approved = await runCli(['approvals', 'approve', id], cliEnvFor(t, 'bob'));
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(t.sandbox.stats()['payouts.create']).toBe(1);
    const done = await waitShown(t.api, id, 'Sent: payout');
    expect(textOf(done)).toMatch(/:white_check_mark: bob \(CLI\), <!date\^/);
    expect(buttonsOf(done)).toEqual([]);
    await t.api.waitFor(() =>
      directMessages(t.api, PEOPLE.olivia).some(
        (l) => l.includes(id) && l.includes('Done: create_payout ran'),
      ),
    );
  });
});

describe('approvals asked for by an assistant', () => {
  it('over MCP: posted and decided in Slack; with no Slack user tied to it, nobody is sent a direct message', async () => {
    const id = await requestInProcess(t.runtime, mcpStdioActor());
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    expect(textOf(post.args)).toContain('*Asked by*\nthe local assistant (MCP)');
    expect(await click(APPROVERS[6] ?? '', id, 'Approve')).toContain('Executed');
    await waitShown(t.api, id, 'Sent: payout');
    await t.api.waitFor(async () => (await t.serve.slack?.services.outbox.pending()) === 0);
    const direct = t.api
      .callsOf('chat.postMessage')
      .filter((c) => String(c.args.channel).startsWith('D') && JSON.stringify(c.args).includes(id));
    expect(direct).toEqual([]);
    expect(
      t.api
        .callsOf('chat.postMessage')
        .some((c) => c.args.thread_ts !== undefined && textOf(c.args).includes('Done')),
    ).toBe(true);
  });
});

describe('approvals asked for in a Slack form', () => {
  it('keep where they were asked: the message names the channel, the requester is told by direct message', async () => {
    const { command, view, values } = await openPayoutForm(t, PEOPLE.olivia);
    const submitted = await t.slack.submit(PEOPLE.olivia, view, values);
    expect(submitted.status).toBe(200);
    const answer = textOf((await t.api.answers(command)).at(-1)?.body ?? {});
    const id = /apr_\w+/.exec(answer)?.[0] ?? '';
    const post = await t.api.waitFor(() => approvalPost(t.api, id));
    expect(textOf(post.args)).toContain(`<@${PEOPLE.olivia}> in <#C0OPS>`);
    expect((await t.runtime.executor.getApproval(id))?.origin).toMatchObject({
      frontEnd: 'slack',
      displayName: 'u0olivia',
      replyTo: { slackUser: PEOPLE.olivia, slackChannel: 'C0OPS' },
    });
    const approver = slackActor(APPROVERS[5] ?? '', [APPROVERS_GROUP]);
    expect((await t.runtime.executor.reject(id, approver, 'not this week')).status).toBe('ok');
    await t.api.waitFor(() =>
      directMessages(t.api, PEOPLE.olivia).some((l) => l.includes(id) && l.includes('not this week')),
    );
  });
});

describe('a restart', () => {
  it('posts nothing twice and misses nothing: messages are edited where they are, approvals opened meanwhile are posted', async () => {
    const first = await requestInProcess();
    const second = await requestInProcess();
    await t.api.waitFor(
      () => approvalPost(t.api, first) !== undefined && approvalPost(t.api, second) !== undefined,
    );
    const where = whereIs(t.api, first);

    let meanwhile = '';
    await t.restart(async () => {
      // Another process on the same database asks while serve is down.
      const other = await createRuntime(
        testConfig(t.sandbox, { dbPath: join(t.dir, 'bankops.db'), policyPath: join(t.dir, 'policy.yaml') }),
        runtimeOptions(),
      );
      meanwhile = await requestInProcess(other);
      await other.close();
    });
    await t.api.waitFor(() => approvalPost(t.api, meanwhile));

    // A vote after the restart edits the message posted before it.
    expect(await click(APPROVERS[1] ?? '', first, 'Approve')).toContain('Executed');
    await waitShown(t.api, first, 'Sent: payout');
    const updates = t.api.callsOf('chat.update').filter((c) => c.args.ts === where?.ts);
    expect(updates.length).toBeGreaterThan(0);
    for (const id of [first, second, meanwhile]) expect(approvalPosts(t.api, id)).toHaveLength(1);
  });
});

describe('a first start and a second replica', () => {
  it('Slack turned on over a database with approvals waiting: they are posted at start-up', async () => {
    let waiting = '';
    await t.restart(async () => {
      const other = await createRuntime(
        testConfig(t.sandbox, { dbPath: join(t.dir, 'bankops.db'), policyPath: join(t.dir, 'policy.yaml') }),
        runtimeOptions(),
      );
      waiting = await requestInProcess(other);
      // As on a database Slack never followed: no position in the feed, so it starts at the end.
      sqliteOf(other).prepare("DELETE FROM feed_cursors WHERE consumer = 'slack-approvals'").run();
      await other.close();
    });
    await t.api.waitFor(() => approvalPost(t.api, waiting));
    expect(approvalPosts(t.api, waiting)).toHaveLength(1);
  });

  it('two serve processes on one database post each approval once and edit it once per change', async () => {
    const config = testConfig(t.sandbox, {
      dbPath: join(t.dir, 'bankops.db'),
      policyPath: join(t.dir, 'policy.yaml'),
    });
    const slackConfig = t.serve.slack?.config;
    if (slackConfig === undefined) throw new Error('Slack is off');
    const replica = await createRuntime(config, runtimeOptions());
    const second = await startServe({
      runtime: replica,
      host: '127.0.0.1',
      port: 0,
      settings: { slack: { enabled: true, config: slackConfig } },
      slack: { processBeforeResponse: true, webApiRetries: 0, outboxPollMs: 50 },
    });
    try {
      const id = await requestInProcess(replica);
      await t.api.waitFor(() => approvalPost(t.api, id));
      expect(await click(APPROVERS[4] ?? '', id, 'Approve')).toContain('Executed');
      // Two processes follow the money on a loaded machine: a wider bound, never a pause.
      await waitShown(t.api, id, 'Sent: payout', 20_000);
      const where = whereIs(t.api, id);
      // Both replicas follow the feed; wait until both are quiet before counting.
      await t.api.waitFor(
        async () =>
          (await t.serve.slack?.services.outbox.pending()) === 0 &&
          (await second.slack?.services.outbox.pending()) === 0,
      );
      expect(approvalPosts(t.api, id)).toHaveLength(1);
      const edits = t.api.callsOf('chat.update').filter((c) => c.args.ts === where?.ts);
      const contents = edits.map((c) => JSON.stringify(c.args.blocks));
      expect(new Set(contents).size).toBe(contents.length);
      const thread = t.api.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === where?.ts);
      expect(new Set(thread.map((c) => c.args.text)).size).toBe(thread.length);
    } finally {
      await second.close();
      await replica.close();
    }
  });
});

describe('Slack failing', () => {
  it('a 5xx on the first post and a 429 with Retry-After on an update are retried later, in order', async () => {
    // Quiet first: the failures below must meet the calls they are meant for.
    await t.api.waitFor(async () => (await t.serve.slack?.services.outbox.pending()) === 0);
    t.api.failNext('chat.postMessage', { status: 503 });
    const a = await requestInProcess();
    const b = await requestInProcess();
    await t.api.waitFor(() => approvalPost(t.api, a) !== undefined && approvalPost(t.api, b) !== undefined);
    const calls = t.api.callsOf('chat.postMessage', true);
    const failed = calls.findIndex((c) => !c.ok && JSON.stringify(c.args.blocks).includes(a));
    expect(failed).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf(approvalPost(t.api, a) ?? calls[0]!)).toBeLessThan(
      calls.indexOf(approvalPost(t.api, b) ?? calls[0]!),
    );

    t.api.failNext('chat.update', { status: 429, retryAfter: 1 });
    const started = Date.now();
    const [one, two] = [APPROVERS[2] ?? '', APPROVERS[3] ?? ''];
    await click(one, a, 'Approve');
    await click(two, b, 'Approve');
    await waitShown(t.api, a, 'Sent: payout');
    await waitShown(t.api, b, 'Sent: payout');
    const updates = t.api.callsOf('chat.update', true);
    const limited = updates.find((c) => !c.ok);
    expect(limited?.args.ts).toBe(whereIs(t.api, a)?.ts);
    const retried = updates.find((c) => c.ok && c.args.ts === limited?.args.ts);
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950);
    // Nothing overtook the rate-limited update: b's first update came after a's retry.
    const firstOfB = updates.find((c) => c.args.ts === whereIs(t.api, b)?.ts);
    expect(firstOfB?.at ?? 0).toBeGreaterThanOrEqual(retried?.at ?? Number.POSITIVE_INFINITY);
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});
