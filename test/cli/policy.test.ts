import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, runCliHere } from '../helpers/cli.js';

// `bankops policy show | history | diff` against a SQLite file: each command a process of its own
// (in this one) that records the file it loads as a version when the newest differs.

const home = cliHome();
afterAll(() => home.cleanup());

const SHIPPED = readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8');
const EDITED = SHIPPED.replace(
  /(name: large-payouts[\s\S]*?approvers: )2/,
  (_match, head: string) => `${head}1`,
).replace(
  '  - match: { mcpStdio: true }\n',
  '  - match: { slackUser: UMALLORY }\n    roles: [viewer, approver]\n  - match: { mcpStdio: true }\n',
);
const policyPath = join(home.dir, 'policy.yaml');
const env = { ...home.env, BANKOPS_POLICY: policyPath };
const run = (...args: string[]) => runCliHere(['policy', ...args], env);

describe('bankops policy', () => {
  it('keeps each file a process loads as a version, and says what changed in words', async () => {
    writeFileSync(policyPath, SHIPPED);
    const first = await run('show');
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({ version: 1, text: SHIPPED, source: `file:${policyPath}` });

    writeFileSync(policyPath, EDITED);
    const history = await run('history');
    expect(history.json.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(history.json[1]).toMatchObject({ proposedBy: 'system:policy-file', approvedBy: [] });
    expect(history.json[1].text).toBeUndefined();

    const diff = await run('diff', '1', '2');
    expect(diff.json.changes).toEqual([
      'person added: slackUser UMALLORY gets viewer, approver',
      'rule "large-payouts": approvers 2 → 1 (FEWER people must approve)',
    ]);
    // A file on one side: what a proposal would change, before it is proposed.
    const back = join(home.dir, 'back.yaml');
    writeFileSync(back, SHIPPED);
    const toFile = await run('diff', '2', back);
    expect(toFile.json.changes).toEqual([
      'slackUser UMALLORY removed: loses viewer, approver',
      'rule "large-payouts": approvers 1 → 2 (more people must approve)',
    ]);

    const old = await run('show', '--version', '1');
    expect(old.json).toMatchObject({ version: 1, text: SHIPPED });
    const missing = await run('show', '--version', '9');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('no version 9');
  });
});
