import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/core/audit/index.js';
import type { PolicyStamp } from '../../../src/core/audit/schema.js';
import { parsePolicyText } from '../../../src/core/policy/index.js';
import { recordFileVersion } from '../../../src/core/policy/record.js';
import { type NewPolicyVersion, policyHash } from '../../../src/core/policy/versions.js';
import { contractBackends } from '../../helpers/backends.js';

// The policy's versions through their store, and the version named in audit entries, on SQLite and
// PostgreSQL: two replicas (two connections) on one database each.

const BACKENDS = await contractBackends('policy-versions');

const TEXT = 'actors: [{match: {cli: "*"}, roles: [viewer]}]\nrules: [{name: reads, allow: [viewer]}]\n';
const OTHER =
  'actors: [{match: {cli: "*"}, roles: [viewer, operator]}]\nrules: [{name: reads, allow: [viewer]}]\n';

const versionOf = (text: string, source = 'file:/etc/bankops/policy.yaml'): NewPolicyVersion => ({
  text,
  hash: policyHash(parsePolicyText(text, source)),
  source,
  proposedBy: 'system:policy-file',
  approvedBy: [],
  createdAt: '2026-11-29T01:00:00.000Z',
});

describe.each(BACKENDS)('policy versions on $name', (backend) => {
  it('appends only after the version the caller read: one winner between two replicas', async () => {
    const [a, b] = await backend.twoReplicas();
    expect(await a.storage.read((s) => s.policies.latest())).toBeUndefined();
    const first = await a.storage.transaction((tx) => tx.policies.append(versionOf(TEXT), 0));
    expect(first?.version).toBe(1);
    // B read "none yet" too: its append after 0 loses.
    expect(await b.storage.transaction((tx) => tx.policies.append(versionOf(OTHER), 0))).toBeUndefined();
    const second = await b.storage.transaction((tx) => tx.policies.append(versionOf(OTHER), 1));
    expect(second?.version).toBe(2);
    const list = await a.storage.read((s) => s.policies.list());
    expect(list.map((v) => [v.version, v.text])).toEqual([
      [1, TEXT],
      [2, OTHER],
    ]);
    expect(await a.storage.read((s) => s.policies.get(1))).toEqual({ version: 1, ...versionOf(TEXT) });
    expect((await b.storage.read((s) => s.policies.latest()))?.version).toBe(2);
  });

  it('records a file once: the same parsed policy, however written, is the same version', async () => {
    const [a, b] = await backend.twoReplicas();
    const one = await recordFileVersion(a.storage, versionOf(TEXT));
    // Reformatted and commented: the canonical parsed form, and so the hash, is the same.
    const reformatted = `# comment\nrules:\n  - name: reads\n    allow: [viewer]\nactors:\n  - match: {cli: "*"}\n    roles: [viewer]\n`;
    const again = await recordFileVersion(b.storage, versionOf(reformatted, 'file:/other/host.yaml'));
    expect(again).toEqual(one);
    const changed = await recordFileVersion(b.storage, versionOf(OTHER));
    expect(changed.version).toBe(2);
  });

  it('writes the deciding version into the hashed content; entries without one keep verifying', async () => {
    const [a, b] = await backend.twoReplicas();
    let stamp: PolicyStamp | undefined;
    const log = new AuditLog(a.storage, { policyStamp: () => stamp });
    const entry = { actor: 'cli:alice', frontEnd: 'cli', tool: 'list_accounts', input: {} } as const;
    // Before versions: no stamp, as entries written by an earlier bankops.
    await log.append({ ...entry, decision: 'allow', event: 'executed', outcome: 'ok' });
    stamp = { version: 3, hash: 'a'.repeat(64) };
    await log.append({ ...entry, decision: 'approval_required', event: 'requested', outcome: 'pending' });
    await log.append({
      ...entry,
      decision: 'enrolled',
      event: 'credential',
      tool: 'passkey',
    });
    const other = new AuditLog(b.storage);
    const entries = await other.list({});
    expect(entries.map((e) => e.policy)).toEqual([undefined, stamp, undefined]);
    expect(await other.verify()).toMatchObject({ ok: true, entries: 3 });
  });
});
