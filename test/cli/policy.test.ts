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

describe('bankops policy recover', () => {
  const own = cliHome();
  afterAll(() => own.cleanup());
  const ADMINS = SHIPPED.replace(
    '  - match: { mcpStdio: true }\n',
    '  - match: { cli: alice }\n    roles: [admin]\n  - match: { cli: bob }\n    roles: [admin]\n  - match: { cli: dave }\n    roles: [admin]\n  - match: { mcpStdio: true }\n',
  );
  const GOVERNED = `governance: { approvers: 2, role: admin }\n${ADMINS}`;
  const file = (name: string, text: string) => {
    const path = join(own.dir, name);
    writeFileSync(path, text);
    return path;
  };
  const runWith = (path: string, ...args: string[]) =>
    runCliHere(['policy', ...args], { ...own.env, BANKOPS_POLICY: path });

  it("is the database owner's way back: a version without votes, audited with its reason", async () => {
    const governed = file('governed.yaml', GOVERNED);
    expect((await runWith(governed, 'show')).json).toMatchObject({ version: 1, text: GOVERNED });
    // Another file changes nothing under governance.
    const mine = file('mine.yaml', SHIPPED);
    expect((await runWith(mine, 'show')).json).toMatchObject({ version: 1, text: GOVERNED });
    expect((await runWith(mine, 'recover', mine)).code).toBe(2);

    const broken = file('broken.yaml', `${GOVERNED}\nbogus: 1\n`);
    const refused = await runWith(mine, 'recover', broken, '--reason', 'both admins left');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('bogus: unknown key');

    const recovered = await runWith(mine, 'recover', mine, '--reason', 'both admins left', '--as', 'carol');
    expect(recovered.code).toBe(0);
    expect(recovered.json).toMatchObject({
      version: 2,
      source: `recovery:${mine}`,
      proposedBy: 'cli:carol',
      approvedBy: [],
    });
    expect((await runWith(mine, 'show')).json).toMatchObject({ version: 2, text: SHIPPED });
    const audit = await runCliHere(['audit', 'tail', '-n', '1', '--json'], {
      ...own.env,
      BANKOPS_POLICY: mine,
    });
    expect(audit.json[0]).toMatchObject({
      actor: 'cli:carol',
      tool: 'policy_recover',
      input: { reason: 'both admins left', file: mine, replaced: 1 },
      policy: { version: 2 },
    });
  });
});
