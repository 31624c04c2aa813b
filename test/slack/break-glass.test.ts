import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/core/actors.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { manualClock } from '../helpers/clock.js';
import type { ApiCall } from '../helpers/slack-api.js';
import { type SlackTest, startSlackTest } from '../helpers/slack-app.js';
import { APPROVALS_CHANNEL, approvalsPolicyYaml, TREASURY_CHANNEL } from '../helpers/slack-approvals.js';
import { textOf } from '../helpers/slack-requests.js';

// Break-glass as Slack shows it: a loud post to every approvals channel (the configured one and
// the treasury channel of large payouts), and its review in every morning digest until two admins
// other than the person who broke the glass close it. The clock is moved; the jobs run on demand.

const clock = manualClock('2026-11-26T07:00:00Z');
const ADMINS = ['ada', 'bob', 'cy'].map((n) => `  - match: { cli: ${n} }\n    roles: [admin]\n`).join('');
const POLICY = `${approvalsPolicyYaml().replace(/^actors:\n/m, `actors:\n${ADMINS}`)}
breakGlass:
  role: admin
  max: { USD: 10000 }
`;

let t: SlackTest;
beforeAll(async () => {
  t = await startSlackTest({
    policyYaml: POLICY,
    config: { approvalsChannel: APPROVALS_CHANNEL, digest: { hour: 9, minute: 0, zone: 'Europe/Berlin' } },
    core: { background: true, clock, ttlSeconds: 7 * 86_400 },
  });
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t.close();
});

const posts = (channel: string, words: string): ApiCall[] =>
  t.api
    .callsOf('chat.postMessage')
    .filter((call) => call.args.channel === channel && textOf(call.args).includes(words));

/** Moves the clock to a day's digest time, runs the jobs, and waits for Slack to have them. */
async function digestOn(day: string): Promise<void> {
  clock.set(`${day}T08:00:30Z`);
  await t.runtime.scheduler.runAll();
  await t.api.waitFor(async () => (await t.serve.slack?.outbox.pending()) === 0);
}

describe('break-glass in Slack', () => {
  it('is posted to every approvals channel, and its review stays in the digest until two close it', async () => {
    const { executor } = t.runtime;
    const asked = pending(
      await executor.execute({ tool: 'create_payout', input: { ...PAYOUT }, actor: cliActor('olivia') }),
    );
    const ran = await executor.breakGlass.breakGlass(asked.id, cliActor('ada'), 'approvers on a flight');
    expect(ran).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    for (const channel of [APPROVALS_CHANNEL, TREASURY_CHANNEL]) {
      const [post] = await t.api.waitFor(() => {
        const found = posts(channel, ':rotating_light: Break-glass:');
        return found.length > 0 ? found : undefined;
      });
      expect(textOf(post?.args ?? {})).toContain('without its approvers: approvers on a flight');
      expect(textOf(post?.args ?? {})).toContain('two admins must close it');
    }

    const open = (channel: string) => posts(channel, 'Break-glass reviews open (1)');
    await digestOn('2026-11-26');
    expect(open(APPROVALS_CHANNEL).length).toBe(1);
    expect(open(TREASURY_CHANNEL).length).toBe(1);

    // The person who broke the glass cannot close it; one close leaves it open.
    expect(await executor.breakGlass.closeReview(asked.id, cliActor('ada'), 'mine')).toMatchObject({
      status: 'refused',
    });
    expect(await executor.breakGlass.closeReview(asked.id, cliActor('bob'), 'checked')).toMatchObject({
      status: 'ok',
    });
    await digestOn('2026-11-27');
    expect(open(APPROVALS_CHANNEL).length).toBe(2);
    expect(textOf(open(APPROVALS_CHANNEL).at(-1)?.args ?? {})).toContain('closed by 1 of 2');

    expect(await executor.breakGlass.closeReview(asked.id, cliActor('cy'), 'invoice ok')).toMatchObject({
      status: 'ok',
    });
    await digestOn('2026-11-28');
    expect(open(APPROVALS_CHANNEL).length).toBe(2);
    expect(open(TREASURY_CHANNEL).length).toBe(2);
  });
});
