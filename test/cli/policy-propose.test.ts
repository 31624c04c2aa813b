import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storedPolicyChanges } from '../../src/core/policy/changes.js';
import { parsePolicyText } from '../../src/core/policy/parse.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { cliHome, runCliHere } from '../helpers/cli.js';

// `bankops policy propose` against a SQLite file, each command a process of its own (in this one):
// a change of the governed policy waits for two admins other than its proposer, says what it
// changes in words, and lands only while the version it was proposed against is in force.

const home = cliHome();
afterAll(() => home.cleanup());

const SHIPPED = readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8');
const GOVERNED = `governance: { approvers: 2, role: admin }\n${SHIPPED.replace(
  '  - match: { mcpStdio: true }\n',
  ['alice', 'bob', 'dave'].map((name) => `  - match: { cli: ${name} }\n    roles: [admin]\n`).join('') +
    '  - match: { mcpStdio: true }\n',
)}`;
/** One approver fewer for large payouts. */
const FEWER = GOVERNED.replace(/(name: large-payouts[\s\S]*?approvers: )2/, (_m, head: string) => `${head}1`);

const file = (name: string, text: string): string => {
  const path = join(home.dir, name);
  writeFileSync(path, text);
  return path;
};
const governed = file('governed.yaml', GOVERNED);
const env = { ...home.env, BANKOPS_POLICY: governed };
const bankops = (...args: string[]) => runCliHere(args, env);
const text = (...args: string[]) => runCliHere(args, { ...env, BANKOPS_OUTPUT: 'text' });

describe('bankops policy propose', () => {
  it('opens a change that two other admins approve; then it is the version in force', async () => {
    expect((await bankops('policy', 'show')).json).toMatchObject({ version: 1 });

    // An invalid proposal is refused with the policy's own message, and opens nothing.
    const broken = await bankops(
      'policy',
      'propose',
      file('broken.yaml', `${FEWER}\nbogus: 1\n`),
      '--as',
      'alice',
    );
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain('bogus: unknown key');
    expect((await bankops('approvals', 'list', '--state', 'pending')).json).toEqual([]);

    // Someone without the governing role cannot propose.
    const operator = await bankops('policy', 'propose', file('fewer.yaml', FEWER), '--as', 'olga');
    expect(operator.code).toBe(3);
    expect(`${operator.stdout}${operator.stderr}`).toContain(
      'proposing a policy change needs role admin (governance)',
    );

    const proposed = await bankops(
      'policy',
      'propose',
      join(home.dir, 'fewer.yaml'),
      '--as',
      'alice',
      '--reason',
      'one approver is enough',
    );
    expect(proposed.code).toBe(0);
    expect(proposed.json).toMatchObject({ status: 'pending_approval', tool: 'propose_policy' });
    const id: string = proposed.json.approvalId;

    // What the admins read, in words, and the version it was opened under.
    const shown = await text('approvals', 'show', id);
    expect(shown.stdout).toContain('rule "large-payouts": approvers 2 → 1 (FEWER people must approve)');
    expect(shown.stdout.replace(/\s+/g, ' ')).toContain('opened under policy version 1');
    expect((await bankops('approvals', 'show', id)).json).toMatchObject({
      policyVersion: 1,
      requiredApprovers: 2,
      approverRole: 'admin',
    });

    // The proposer's vote is refused; one approval changes nothing.
    const own = await bankops('approvals', 'approve', id, '--as', 'alice');
    expect(own.code).not.toBe(0);
    expect(`${own.stdout}${own.stderr}`).toContain('alice');
    expect((await bankops('approvals', 'approve', id, '--as', 'bob')).code).toBe(0);
    expect((await bankops('policy', 'show')).json).toMatchObject({ version: 1 });

    const last = await bankops('approvals', 'approve', id, '--as', 'dave');
    expect(last.code).toBe(0);
    expect(last.json).toMatchObject({ approval: { state: 'succeeded' } });
    expect((await bankops('policy', 'show')).json).toMatchObject({
      version: 2,
      text: FEWER,
      source: `proposal:${id}`,
      proposedBy: 'cli:alice',
      approvedBy: ['cli:bob', 'cli:dave'],
    });
    // The next decision names version 2.
    await bankops('approvals', 'list');
    const audit = await bankops('audit', 'tail', '-n', '30');
    const votes = audit.json.filter(
      (entry: { approvalId?: string; event: string }) => entry.approvalId === id && entry.event === 'decided',
    );
    expect(votes.map((entry: { policy?: { version: number } }) => entry.policy?.version)).toEqual([1, 1, 1]);
  });

  it('fails, saying so, when another change landed since it was proposed', async () => {
    const a = await bankops('policy', 'propose', file('a.yaml', GOVERNED), '--as', 'bob');
    const reminder = GOVERNED.replace(
      'approval: { approvers: 1, role: approver }\n\n  # Links',
      'approval: { approvers: 1, role: approver, reminder: 2h }\n\n  # Links',
    );
    expect(reminder).not.toBe(GOVERNED);
    const b = await bankops('policy', 'propose', file('b.yaml', reminder), '--as', 'dave');
    expect(a.json.status).toBe('pending_approval');
    expect(b.json.status).toBe('pending_approval');
    for (const who of ['alice', 'dave'])
      await bankops('approvals', 'approve', a.json.approvalId, '--as', who);
    expect((await bankops('policy', 'show')).json).toMatchObject({ version: 3, text: GOVERNED });

    await bankops('approvals', 'approve', b.json.approvalId, '--as', 'alice');
    const late = await bankops('approvals', 'approve', b.json.approvalId, '--as', 'bob');
    expect(late.json).toMatchObject({ approval: { state: 'failed' } });
    expect(`${late.stdout}${late.stderr}`).toContain('another policy change landed first');
    expect((await bankops('policy', 'show')).json).toMatchObject({ version: 3 });
  });

  it('lands only with the votes governance asks for, however its approval came to run', async () => {
    const before = (await bankops('policy', 'show')).json.version as number;
    const proposed = await bankops('policy', 'propose', file('c.yaml', FEWER), '--as', 'alice');
    expect(proposed.json.status).toBe('pending_approval');
    await bankops('approvals', 'approve', proposed.json.approvalId, '--as', 'bob');
    // The store's own change, as the tool would apply it with one vote of two.
    const db = openDatabase(home.dbPath);
    try {
      const changes = storedPolicyChanges(sqliteStorage(db), parsePolicyText, () => new Date());
      await expect(
        changes.apply({
          approvalId: proposed.json.approvalId,
          text: FEWER,
          against: before,
          proposedBy: 'alice',
        }),
      ).rejects.toThrow(
        `a policy change needs 2 approvals (governance.approvers); ${proposed.json.approvalId} has 1: nothing changed`,
      );
    } finally {
      db.close();
    }
    expect((await bankops('policy', 'show')).json).toMatchObject({ version: before });
  });
});
