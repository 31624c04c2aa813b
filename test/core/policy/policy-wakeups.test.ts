import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PolicyStore, parsePolicyText } from '../../../src/core/policy/index.js';
import { policyHash } from '../../../src/core/policy/versions.js';
import { until } from '../../helpers/approvals.js';
import { contractBackends } from '../../helpers/backends.js';

// Every process that decides switches together: on PostgreSQL the version's transaction wakes the
// others (NOTIFY), so a process whose own look is an hour away still switches; SQLite has no
// wake-ups and keeps its look.

const BACKENDS = await contractBackends('policy-wakeups');
const dir = mkdtempSync(join(tmpdir(), 'bankops-policy-wakeups-'));
const open: PolicyStore[] = [];
afterAll(() => {
  for (const store of open) store.close();
  rmSync(dir, { recursive: true, force: true });
});

const governed = (rule: string) =>
  `governance: { approvers: 2, role: admin }
actors:
${['UA', 'UB', 'UC'].map((user) => `  - { match: { slackUser: ${user} }, roles: [admin] }\n`).join('')}rules:
  - { name: ${rule}, allow: [admin] }
`;

function load(name: string, text: string): PolicyStore {
  const path = join(dir, name);
  writeFileSync(path, text);
  const store = PolicyStore.load(path);
  open.push(store);
  return store;
}

describe.each(BACKENDS)('a new version on $name', (backend) => {
  it('wakes the other processes where the database sends wake-ups', async () => {
    const [a, b] = await backend.twoReplicas();
    const writer = load(`writer-${backend.name}.yaml`, governed('v1'));
    await writer.attach(a.storage);
    const reader = load(`reader-${backend.name}.yaml`, governed('v1'));
    await reader.attach(b.storage);
    const v1 = reader.stamp()?.version ?? 0;
    // Its own look an hour away: only a wake-up can make it switch within the test.
    reader.follow(3_600_000, (error) => expect.fail(String(error)), b.policyWakeups);

    const text = governed('v2');
    await a.storage.transaction((tx) =>
      tx.policies.append(
        {
          text,
          hash: policyHash(parsePolicyText(text, 'v2')),
          source: 'proposal:apr_test',
          proposedBy: 'slack:UA',
          approvedBy: ['slack:UB', 'slack:UC'],
          createdAt: new Date().toISOString(),
        },
        v1,
      ),
    );
    if (b.policyWakeups === undefined) {
      // SQLite: no wake-ups; the look (every 5 seconds in a long-running process) picks it up.
      expect(backend.name).toBe('SQLite');
      await reader.sync();
    } else {
      await until(() => reader.stamp()?.version === v1 + 1, 'the reader to be woken', 15_000);
    }
    expect(reader.stamp()?.version).toBe(v1 + 1);
    expect(reader.current().rules[0]?.name).toBe('v2');
  });
});
