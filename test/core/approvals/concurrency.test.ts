import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { slackActor } from '../../../src/core/actors.js';
import {
  available,
  type Child,
  creates,
  PAYOUT,
  PAYOUT_DEBIT,
  pending,
  startChild,
} from '../../helpers/approvals.js';
import { createTestCore, type TestCore, type TestCoreOptions } from '../../helpers/core.js';

// Fifty treasury approvers in one Slack user group; the CLI operator requests.
const POLICY = `
roles: [viewer, operator, approver]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator, approver]
  - match: { slackGroup: S0TREASURY }
    roles: [viewer, approver]
rules:
  - tools: [create_payout]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - readOnly: true
    allow: [viewer, operator, approver]
`;

let core: TestCore | undefined;
async function start(options: TestCoreOptions = {}): Promise<TestCore> {
  core = await createTestCore(options);
  return core;
}
const children: Child[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.kill()));
  await core?.close();
  core = undefined;
});

describe('approvals under concurrency', () => {
  it('executes once when 50 approvers click at the same moment', async () => {
    const c = await start({ policyYaml: POLICY });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    const approvers = Array.from({ length: 50 }, (_, i) =>
      slackActor(`U${String(i).padStart(4, '0')}`, ['S0TREASURY']),
    );

    const started = performance.now();
    const results = await Promise.all(approvers.map((approver) => c.executor.approve(id, approver)));
    const ms = performance.now() - started;
    console.info(`50 concurrent approvals of one payout: ${ms.toFixed(0)} ms, including the payout call`);

    const winners = results.filter((r) => r.status === 'ok');
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ approval: { state: 'succeeded' } });
    // Everyone else was told why nothing more happened.
    for (const r of results.filter((x) => x.status !== 'ok')) {
      expect(r).toMatchObject({
        status: 'refused',
        reason: expect.stringMatching(/already approved and (running|has run)/),
      });
    }
    expect(creates(c)).toBe(1);
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
    expect((await c.approvals.get(id))?.approvals).toHaveLength(1);
    expect(
      (await c.audit.list({ approvalId: id, limit: 100 })).filter((e) => e.event === 'executing'),
    ).toHaveLength(1);
  });

  it('executes once when approvers in four processes race on the same database file', async () => {
    const c = await start({ policyYaml: POLICY });
    const policyFile = join(c.dbPath, '..', 'race-policy.yaml');
    writeFileSync(policyFile, POLICY);
    children.push(...(await Promise.all([1, 2, 3, 4].map(() => startChild(c, { policyFile })))));
    const { id } = pending(await c.call('create_payout', PAYOUT));

    // One line each, written back to back: the four processes vote within the same few milliseconds.
    for (const [i, child] of children.entries()) child.send({ cmd: 'approve', id, as: `racer${i}` });
    const answers = (await Promise.all(children.map((child) => child.next()))).map(
      (a) => a.approve as { status: string; reason?: string },
    );

    expect(
      answers.filter((a) => a.status === 'ok'),
      JSON.stringify(answers),
    ).toHaveLength(1);
    expect(answers.filter((a) => a.status === 'refused')).toHaveLength(3);
    expect(await c.executor.approve(id, c.approver)).toMatchObject({ status: 'refused' });
    expect(creates(c)).toBe(1);
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
    expect(await c.approvals.get(id)).toMatchObject({ state: 'succeeded' });
    expect(await c.audit.verify()).toMatchObject({ ok: true });
  });
});
