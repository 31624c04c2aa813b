import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  defaultPolicyPath,
  matchingRule,
  type Policy,
  parsePolicyText,
  weakerForLarger,
} from '../../../src/core/policy/index.js';
import { cliHome, runCliHere } from '../../helpers/cli.js';
import { tools } from '../../helpers/policy.js';

const home = cliHome();
afterAll(() => home.cleanup());

/**
 * The policy edits the docs tell a person to make, applied to the shipped policy as written, and
 * what the result asks of a small and a large payout: a control turned on must be on for the
 * riskier case too. And the warning for a policy where larger amounts ask less.
 */

const ROOT = join(import.meta.dirname, '..', '..', '..');
const shipped = readFileSync(defaultPolicyPath(), 'utf8');

/** The `sed …` command of docs/approvals.md's "try it" block, as a person would paste it. */
function stepUpSed(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'approvals.md'), 'utf8');
  const command = /^(sed [^\n]*\\\n[^\n]*)$/m.exec(doc)?.[1];
  if (command === undefined) throw new Error('docs/approvals.md has no sed command');
  return command.replace(/> \/tmp\/step-up\.yaml/, '').replace('policy/default.yaml', defaultPolicyPath());
}

const asked = (policy: Policy, amount: number) =>
  matchingRule(policy, tools.createPayout, { amount, currency: 'USD' }, { amount, currency: 'USD' })?.rule
    .approval;

describe('documented policy snippets', () => {
  it("docs/approvals.md's step-up edit asks a passkey for a small payout and for a large one", () => {
    const edited = execFileSync('bash', ['-c', stepUpSed()], { encoding: 'utf8' });
    const policy = parsePolicyText(edited, 'step-up.yaml');
    expect(asked(policy, 1_000)).toMatchObject({ approvers: 1, stepUp: 'passkey' });
    expect(asked(policy, 60_000)).toMatchObject({ approvers: 2, stepUp: 'passkey' });
    expect(weakerForLarger(policy)).toEqual([]);
  });

  it('the shipped policy asks at least as much for larger amounts', () => {
    expect(weakerForLarger(parsePolicyText(shipped, 'default.yaml'))).toEqual([]);
  });
});

describe('a policy that asks less for larger amounts', () => {
  it('is warned about (and by config check): no passkey where smaller amounts need one, or fewer approvers', async () => {
    // The edit as the docs once had it: step-up on the one-approver rules only.
    const backwards = parsePolicyText(
      shipped.replaceAll(
        'approval: { approvers: 1, role: approver }',
        'approval: { approvers: 1, role: approver, stepUp: passkey }',
      ),
      'backwards.yaml',
    );
    // config check says it among its warnings.
    const file = join(mkdtempSync(join(tmpdir(), 'bankops-policy-')), 'backwards.yaml');
    writeFileSync(
      file,
      shipped.replaceAll(
        'approval: { approvers: 1, role: approver }',
        'approval: { approvers: 1, role: approver, stepUp: passkey }',
      ),
    );
    const check = await runCliHere(['config', 'check', '--json'], {
      ...home.env,
      BANKOPS_POLICY: file,
      BANKOPS_PUBLIC_URL: 'http://localhost:8765',
    });
    expect(check.json?.warnings, check.stderr).toEqual([
      expect.stringContaining("rule 'large-payouts' asks less for create_payout"),
    ]);
    expect(weakerForLarger(backwards)).toEqual([
      "rule 'large-payouts' asks less for create_payout from 50000 USD, 45000 EUR, 40000 GBP, 65000 SGD, 50000 in other currencies (2 approvers without a passkey) than rule 'payouts' asks for smaller amounts (1 approver with a passkey): make the larger amounts' rule at least as strict",
    ]);
    const fewer = parsePolicyText(
      shipped
        .replace('approval: { approvers: 2, role: approver }', 'approval: { approvers: 1, role: approver }')
        .replace(
          /(- name: payouts\n\s+tools: \[create_payout\]\n\s+allow: \[operator\]\n\s+approval: \{ approvers: )1/,
          '$12',
        ),
      'fewer.yaml',
    );
    expect(weakerForLarger(fewer)).toEqual([
      expect.stringMatching(
        /^rule 'large-payouts' asks less .*\(1 approver without a passkey\) than rule 'payouts' .*\(2 approvers without a passkey\)/,
      ),
    ]);
  });
});
