import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPolicyError, PolicyStore, parsePolicyText } from '../../../src/core/policy/index.js';
import { policyHash } from '../../../src/core/policy/versions.js';
import { contractBackends } from '../../helpers/backends.js';

// Governance on both backends: two processes (two connections to one database), each with a file of
// its own; the store's governed version decides in both, whatever their files say.

const BACKENDS = await contractBackends('policy-governance');
const dir = mkdtempSync(join(tmpdir(), 'bankops-governance-'));
const open: PolicyStore[] = [];
afterAll(() => {
  for (const store of open) store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ADMINS = `
  - match: { slackUser: UALICE }
    roles: [admin, viewer]
    person: alice
  - match: { cli: alice }
    roles: [admin, viewer]
    person: alice
  - match: { slackUser: UBOB }
    roles: [admin, viewer]
  - match: { slackUser: UCAROL }
    roles: [admin, viewer]
`;
const governed = (rule: string) =>
  `governance: { approvers: 2, role: admin }\nactors:${ADMINS}rules:\n  - { name: ${rule}, allow: [viewer] }\n`;
const ungoverned = (rule: string) =>
  `actors:${ADMINS}rules:\n  - { name: ${rule}, allow: [viewer, admin] }\n`;

let files = 0;
function load(text: string, notices: string[]): PolicyStore {
  const path = join(dir, `policy-${++files}.yaml`);
  writeFileSync(path, text);
  const store = PolicyStore.load(path, { onNotice: (message) => notices.push(message) });
  open.push(store);
  return store;
}

describe('the governance section', () => {
  it('is refused unless a proposer and as many others as a change needs hold the governing role', () => {
    // alice's two identities are one person: three admins are alice, bob and carol; a change of
    // three approvers needs a fourth, who proposes.
    const text = governed('reads').replace('approvers: 2', 'approvers: 3');
    let caught: unknown;
    try {
      parsePolicyText(text, 'three.yaml');
    } catch (error) {
      caught = error;
    }
    expect(isPolicyError(caught)).toBe(true);
    expect((caught as Error).message).toContain(
      'governance: a change needs 4 people with role "admin" (one proposes, 3 others approve) but 3 hold it (alice, slack:UBOB, slack:UCAROL): nobody could approve the next change',
    );
    expect(parsePolicyText(governed('reads'), 'two.yaml').governance).toEqual({
      approvers: 2,
      role: 'admin',
    });
  });
});

describe.each(BACKENDS)('governance on $name', (backend) => {
  it("decides by the store's version in every process; an edited file changes nothing and says so once", async () => {
    const [a, b] = await backend.twoReplicas();
    const saidA: string[] = [];
    const saidB: string[] = [];
    const first = load(governed('v1'), saidA);
    await first.attach(a.storage);
    expect(first.governed).toBe(true);
    expect(first.stamp()?.version).toBe(1);

    // Started with another file: it says so at start and decides by version 1.
    const second = load(ungoverned('mine'), saidB);
    await second.attach(b.storage);
    expect(second.current().rules[0]?.name).toBe('v1');
    expect(second.stamp()).toEqual(first.stamp());
    expect(saidB).toHaveLength(1);
    expect(saidB[0]).toContain('differs from version 1 in force under governance; deciding by version 1');

    // Edited on one host: still version 1, and no version was recorded for it.
    writeFileSync(second.path, ungoverned('edited'));
    expect(await second.reloadSettled()).toEqual({ ok: true });
    expect(second.current().rules[0]?.name).toBe('v1');
    expect(await second.reloadSettled()).toEqual({ ok: true });
    expect(saidB).toHaveLength(2);
    expect(await b.storage.read((s) => s.policies.list())).toHaveLength(1);
    expect(saidA).toEqual([]);

    // A change put in force in the store (what an approved proposal records): both follow it.
    const text = governed('v2');
    await a.storage.transaction((tx) =>
      tx.policies.append(
        {
          text,
          hash: policyHash(parsePolicyText(text, 'v2')),
          source: 'proposal:apr_test',
          proposedBy: 'slack:UCAROL',
          approvedBy: ['alice', 'slack:UBOB'],
          createdAt: new Date().toISOString(),
        },
        1,
      ),
    );
    // A decision in progress keeps the version it started with.
    await first.decide(async () => {
      await first.sync();
      expect(first.current().rules[0]?.name).toBe('v1');
      expect(first.stamp()?.version).toBe(1);
    });
    expect(first.current().rules[0]?.name).toBe('v2');
    await second.sync();
    expect(second.stamp()).toEqual({ version: 2, hash: policyHash(parsePolicyText(text, 'v2')) });
    expect(second.current().rules[0]?.name).toBe('v2');
  });

  it('is turned on by a governed file the first time, and only then', async () => {
    const [a] = await backend.twoReplicas();
    const plain = load(ungoverned('plain'), []);
    await plain.attach(a.storage);
    expect(plain.governed).toBe(false);
    const turnOn = load(governed('on'), []);
    await turnOn.attach(a.storage);
    expect(turnOn.governed).toBe(true);
    expect(turnOn.stamp()?.version).toBe(2);
    // The ungoverned process picks it up and no longer records its file.
    await plain.sync();
    expect(plain.governed).toBe(true);
    expect(plain.current().rules[0]?.name).toBe('on');
  });
});
