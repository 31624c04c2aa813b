import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isPolicyError,
  type PolicyError,
  parsePolicyText,
  parsePolicyValue,
  readPolicyFile,
  unknownToolNames,
  unlistedMcpKeys,
} from '../../../src/core/policy/index.js';

/** The issues of the PolicyError a parse throws; fails the test when it does not throw one. */
function issuesOf(parse: () => unknown): readonly string[] {
  try {
    parse();
  } catch (error) {
    if (isPolicyError(error)) return (error as PolicyError).issues;
    throw error;
  }
  throw new Error('expected a PolicyError');
}

const yamlIssues = (text: string) => issuesOf(() => parsePolicyText(text, 'test.yaml'));

describe('policy file parsing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-policy-parse-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts a complete policy and fills in the optional lists', () => {
    const policy = parsePolicyText(
      [
        'rules:',
        '  - name: big',
        '    tools: [create_payout]',
        '    when: { any: [{ amount: { atLeast: { USD: 10, default: 5 } } }, { input: { path: a.b, in: [X] } }] }',
        '    allow: [operator]',
        '    approval: { approvers: 2, role: approver }',
      ].join('\n'),
      'ok.yaml',
    );
    expect(policy.actors).toEqual([]);
    expect(policy.mcpKeys).toEqual([]);
    expect(policy.rules[0]?.approval).toEqual({ approvers: 2, role: 'approver' });
    // Read into a discriminated union: the evaluator switches on `kind`.
    expect(policy.rules[0]?.when).toEqual({
      kind: 'any',
      of: [
        { kind: 'amount', atLeast: { USD: 10, default: 5 } },
        { kind: 'input', path: 'a.b', in: ['X'] },
      ],
    });
  });

  it('names the path of a bad value deep in the rules', () => {
    const issues = yamlIssues(
      [
        'rules:',
        '  - allow: [a]',
        '  - allow: [b]',
        '  - allow: [c]',
        '    approval: { approvers: 6, role: approver }',
      ].join('\n'),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^rules\[2\]\.approval\.approvers: .*5/);
  });

  it('refuses approvers below 1 and non-integers', () => {
    expect(yamlIssues('rules: [{allow: [a], approval: {approvers: 0, role: r}}]')[0]).toMatch(
      /^rules\[0\]\.approval\.approvers: /,
    );
    expect(yamlIssues('rules: [{allow: [a], approval: {approvers: 1.5, role: r}}]')[0]).toMatch(
      /^rules\[0\]\.approval\.approvers: /,
    );
  });

  it('refuses unknown keys, naming each one at its own path', () => {
    const issues = yamlIssues(
      [
        'rules:',
        '  - allow: [a]',
        '    approval: { approvers: 1, role: r, quorum: 2 }',
        '    tool: [x]',
        'extra: 1',
      ].join('\n'),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        'rules[0].approval.quorum: unknown key',
        'rules[0].tool: unknown key',
        'extra: unknown key',
      ]),
    );
    expect(issues).toHaveLength(3);
  });

  it('refuses an actor match that is empty or mixes kinds', () => {
    const issues = yamlIssues(
      [
        'actors:',
        '  - { match: {}, roles: [a] }',
        '  - { match: { slackUser: U1, cli: bob }, roles: [a] }',
        'rules: []',
      ].join('\n'),
    );
    expect(issues).toEqual([
      expect.stringMatching(/^actors\[0\]\.match: needs one of slackUser, slackGroup, mcpKey, mcpStdio, cli/),
      expect.stringMatching(/^actors\[1\]\.match: has slackUser and cli/),
    ]);
  });

  it('refuses conditions that are empty, mixed or malformed, deep inside all/any', () => {
    expect(yamlIssues('rules: [{allow: [a], when: {}}]')).toEqual([
      expect.stringMatching(/^rules\[0\]\.when: needs one of amount, input, payee, .*all, any/),
    ]);
    expect(
      yamlIssues('rules: [{allow: [a], when: {amount: {atLeast: {USD: 1}}, input: {path: s, in: [A]}}}]'),
    ).toEqual([expect.stringMatching(/^rules\[0\]\.when: has amount and input/)]);
    expect(
      yamlIssues('rules: [{allow: [a], when: {all: [{any: [{amount: {atLeast: {usd: 1}}}]}]}}]'),
    ).toEqual([
      'rules[0].when.all[0].any[0].amount.atLeast.usd: must be a 3-letter upper-case currency code or "default"',
    ]);
    expect(yamlIssues('rules: [{allow: [a], when: {amount: {atLeast: {USD: -1}}}}]')[0]).toMatch(
      /^rules\[0\]\.when\.amount\.atLeast\.USD: /,
    );
    expect(yamlIssues('rules: [{allow: [a], when: {amount: {atLeast: {}}}}]')[0]).toMatch(
      /^rules\[0\]\.when\.amount\.atLeast: needs at least one currency/,
    );
    expect(yamlIssues('rules: [{allow: [a], when: {input: {path: "a..b", in: [X]}}}]')[0]).toMatch(
      /^rules\[0\]\.when\.input\.path: must be a dotted path/,
    );
    expect(yamlIssues('rules: [{allow: [a], when: {any: []}}]')[0]).toMatch(/^rules\[0\]\.when\.any: /);
    // A break-glass is reviewed by two people or more.
    expect(
      yamlIssues(
        'roles: [admin]\nbreakGlass: {role: admin, max: {USD: 100}, review: {people: 1}}\nrules: []',
      ),
    ).toEqual([
      'breakGlass.review.people: must be at least 2: a break-glass is reviewed by two people or more',
    ]);
  });

  it('refuses bad tool names and toolsets', () => {
    expect(yamlIssues('rules: [{allow: [a], tools: [Create-Payout], toolsets: [banking, cards]}]')).toEqual([
      expect.stringMatching(/^rules\[0\]\.tools\[0\]: must be a tool name/),
      expect.stringMatching(/^rules\[0\]\.toolsets\[1\]: /),
    ]);
  });

  it('checks references: duplicate names and digests, declared roles', () => {
    const digest = 'a'.repeat(64);
    const issues = yamlIssues(
      [
        'roles: [viewer, approver]',
        'mcpKeys:',
        `  - { name: k1, sha256: ${digest} }`,
        `  - { name: k1, sha256: ${digest.toUpperCase()} }`,
        'actors:',
        '  - { match: { mcpKey: k2 }, roles: [viewer, operatr] }',
        'rules:',
        '  - { name: r, allow: [viewer] }',
        '  - { name: r, allow: [viewer], approval: { approvers: 1, role: aprover } }',
      ].join('\n'),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        'mcpKeys[1].name: duplicate key name "k1"',
        'mcpKeys[1].sha256: same digest as an earlier key',
        'actors[0].roles[1]: role "operatr" is not declared in roles',
        'rules[1].name: duplicate rule name "r"',
        'rules[1].approval.role: role "aprover" is not declared in roles',
      ]),
    );
    expect(issues).toHaveLength(5);
  });

  it('loads an actor entry whose MCP key is no longer listed, which matches nothing, and names it', () => {
    const digest = 'b'.repeat(64);
    const policy = parsePolicyText(
      [
        'mcpKeys:',
        `  - { name: kept, sha256: ${digest} }`,
        'actors:',
        '  - { match: { mcpKey: kept }, roles: [viewer] }',
        '  - { match: { mcpKey: revoked }, roles: [operator] }',
        'rules:',
        '  - { allow: [viewer] }',
      ].join('\n'),
      'policy.yaml',
    );
    expect(unlistedMcpKeys(policy)).toEqual([
      'actors[1].match.mcpKey: no entry named "revoked" in mcpKeys, so it matches nothing',
    ]);
    expect(policy.mcpKeys.map((key) => key.name)).toEqual(['kept']);
  });

  it('refuses a digest that is not 64 hex characters', () => {
    expect(yamlIssues('mcpKeys: [{name: k, sha256: abc}]\nrules: []')).toEqual([
      expect.stringMatching(/^mcpKeys\[0\]\.sha256: must be the SHA-256 hex digest/),
    ]);
  });

  it('reports a missing rules list, a wrong root and an empty file', () => {
    expect(yamlIssues('actors: []')).toEqual([expect.stringMatching(/^rules: /)]);
    expect(yamlIssues('- a\n- b')).toEqual([expect.stringMatching(/^\(policy\): /)]);
    expect(yamlIssues('')).toEqual(['the file is empty']);
    expect(issuesOf(() => parsePolicyValue(null, 'x'))).toEqual([expect.stringMatching(/^\(policy\): /)]);
  });

  it('reports YAML syntax errors and duplicate keys with a position', () => {
    expect(yamlIssues('rules: [allow: [a]\n')[0]).toMatch(/^not valid YAML: .*line \d+/);
    expect(yamlIssues('rules: []\nrules: []')[0]).toMatch(
      /^not valid YAML: Map keys must be unique at line 2/,
    );
  });

  it('reads JSON files, refusing duplicate keys there too', () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ rules: [{ readOnly: true, allow: ['viewer'] }] }, null, '\t'));
    expect(readPolicyFile(good).rules).toEqual([{ readOnly: true, allow: ['viewer'] }]);

    const dup = join(dir, 'dup.json');
    writeFileSync(dup, '{"rules": [], "rules": []}');
    expect(issuesOf(() => readPolicyFile(dup))[0]).toMatch(/^not valid JSON: /);
  });

  it('reports an unreadable file as a PolicyError naming the file', () => {
    const missing = join(dir, 'missing.yaml');
    let caught: unknown;
    try {
      readPolicyFile(missing);
    } catch (error) {
      caught = error;
    }
    expect(isPolicyError(caught)).toBe(true);
    expect((caught as PolicyError).message).toContain(missing);
    expect((caught as PolicyError).issues[0]).toMatch(/^cannot read the file: .*ENOENT/);
  });

  it('lists rule entries that name tools the registry does not have', () => {
    const policy = parsePolicyText(
      'rules: [{allow: [a]}, {allow: [a], tools: [list_accounts, creat_payout]}]',
      'x.yaml',
    );
    expect(unknownToolNames(policy, ['list_accounts', 'create_payout'])).toEqual([
      'rules[1].tools[1]: no tool named "creat_payout"',
    ]);
  });
});

describe('reserved names', () => {
  it("refuses an MCP key named 'stdio', the local assistant's name", () => {
    const digest = 'a'.repeat(64);
    expect(() =>
      parsePolicyText(`mcpKeys:\n  - name: stdio\n    sha256: ${digest}\nrules: []\n`, 'test'),
    ).toThrow(/mcpKeys\[0\]\.name: 'stdio' is reserved/);
  });
});
