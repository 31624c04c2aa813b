import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecuteResult } from '../../../src/core/results.js';
import { type Child, PAYOUT, startChild } from '../../helpers/approvals.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

// Every payout waits for one approver; one requester may ask for 50,000 USD a Berlin day.
const POLICY = `
roles: [viewer, operator, approver]
actors:
  - match: { cli: "*" }
    roles: [viewer, operator, approver]
limits:
  zone: Europe/Berlin
  perRequester: { USD: 50000 }
rules:
  - tools: [create_payout]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - readOnly: true
    allow: [viewer, operator, approver]
`;

let core: TestCore | undefined;
const children: Child[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.kill()));
  await core?.close();
  core = undefined;
});

describe('daily limits across processes on one SQLite file', () => {
  it('admits exactly 5 of 20 concurrent requests of 10,000 against a 50,000 limit, from four processes', async () => {
    core = await createTestCore({ policyYaml: POLICY });
    const c = core;
    const policyFile = join(c.dbPath, '..', 'limits-policy.yaml');
    writeFileSync(policyFile, POLICY);
    children.push(...(await Promise.all([1, 2, 3].map(() => startChild(c, { policyFile })))));
    const payout = (n: number) => ({ ...PAYOUT, amount: 10_000, reference: `split ${n}` });

    // Five requests from each child, written back to back, and five from this process meanwhile.
    for (const [i, child] of children.entries())
      for (let n = 0; n < 5; n += 1)
        child.send({ cmd: 'call', tool: 'create_payout', input: payout(i * 5 + n), as: 'operator' });
    const here = Array.from({ length: 5 }, (_, n) => c.call('create_payout', payout(15 + n)));
    const answers: ExecuteResult[] = [...(await Promise.all(here))];
    for (const child of children)
      for (let n = 0; n < 5; n += 1) answers.push((await child.next()).call as ExecuteResult);

    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 'pending_approval'),
      JSON.stringify(answers),
    ).toHaveLength(5);
    expect(statuses.filter((s) => s === 'denied')).toHaveLength(15);
    for (const refused of answers.filter((a) => a.status === 'denied'))
      expect(refused).toMatchObject({
        reason: expect.stringContaining('daily limit per requester 50,000.00 USD'),
      });
    expect(await c.approvals.list({ state: 'pending' })).toHaveLength(5);
  });
});
