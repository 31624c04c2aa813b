import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { cliHome, payoutCall, runCliHere } from '../helpers/cli.js';

// `bankops payees` against a SQLite file and the embedded sandbox beside it, each command through
// the CLI's main: naming waits for an approver (rule payee-directory), verifying needs the role
// verifier and someone other than the person who named the payee.

const home = cliHome();
afterAll(() => home.cleanup());

const policy = parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8'),
) as { actors: unknown[] };
policy.actors = [
  { match: { cli: 'alice' }, roles: ['viewer', 'operator', 'verifier'] },
  { match: { cli: 'bob' }, roles: ['viewer', 'approver'] },
  { match: { cli: 'vera' }, roles: ['viewer', 'verifier'] },
];
const policyPath = join(home.dir, 'policy.yaml');
writeFileSync(policyPath, stringify(policy));
const env = { ...home.env, BANKOPS_POLICY: policyPath };

const run = (...args: string[]) => runCliHere(['payees', ...args], env);
const runText = (...args: string[]) => runCliHere(['payees', ...args], { ...env, BANKOPS_OUTPUT: 'text' });
const VERIFY = [
  '--method',
  'callback',
  '--contact',
  '+1 555 0100 2233',
  '--note',
  'Jane Doe in AP confirmed',
];

describe('bankops payees', () => {
  it('names a beneficiary once an approver approves, then reports it unverified', async () => {
    const asked = await run('name', 'ben_us_ach_0001', 'Acme Corp', '--as', 'alice', '--json');
    expect(asked.stderr).toBe('');
    expect(asked.code).toBe(0);
    expect(asked.json).toMatchObject({ status: 'pending_approval', tool: 'name_payee' });
    const text = await runText('name', 'ben_us_ach_0001', 'Acme Corp', '--as', 'alice');
    expect(text.stdout).toContain(asked.json.approvalId);
    // The approvers read which bank details get the name, and what they were called until now.
    expect(JSON.stringify(asked.json.approval)).toMatch(
      /Name ben_us_ach_0001 \(US, USD, [^)]*••••\d{4}\) \\"Acme Corp\\"; now named Jane Doe \(ACH\)/,
    );

    const approved = await runCliHere(['approvals', 'approve', asked.json.approvalId, '--as', 'bob'], env);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    const shown = await runCliHere(['approvals', 'show', asked.json.approvalId, '--json'], env);
    expect(shown.stdout).toContain('Acme Corp');
    expect(shown.json).toMatchObject({ state: 'succeeded' });
    // The name on other bank details: the approvers are told it moves.
    const moving = await run('name', 'ben_de_swift_0001', 'ACME  corp', '--as', 'alice', '--json');
    expect(JSON.stringify(moving.json?.approval)).toMatch(
      /Acme Corp is already a payee with other bank details \([^)]*ben_us_ach_0001\): this moves the name to new bank details/,
    );
    // The name as it will be kept: spaces inside collapsed, as names are matched.
    expect(JSON.stringify(moving.json?.approval)).toContain('\\"ACME corp\\"');
    // Its details say whose the name is now, under a label that says so.
    const details = await runCliHere(['approvals', 'show', moving.json.approvalId], {
      ...env,
      BANKOPS_OUTPUT: 'text',
      COLUMNS: '200',
    });
    expect(details.stdout).toMatch(/Name also on\s+ben_us_ach_0001/);
    expect(details.stdout).toMatch(/Called now\s+Rhein Maschinenbau GmbH/);
    expect(
      (
        await runCliHere(
          ['approvals', 'reject', moving.json.approvalId, '--as', 'bob', '--reason', 'not ours'],
          env,
        )
      ).code,
    ).toBe(0);
  });

  it('refuses a verification by the person who named the payee, and by one without the role', async () => {
    const own = await runText('verify', 'Acme Corp', ...VERIFY, '--as', 'alice');
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('cli:alice created or changed Acme Corp: another verifier calls back');
    const noRole = await runText('verify', 'Acme Corp', ...VERIFY, '--as', 'bob');
    expect(noRole.code).toBe(3);
    expect(noRole.stderr).toContain('not allowed');
    expect(noRole.stderr).toContain('verifier');
  });

  it('records a call-back by another verifier, by name, keeping only the last digits', async () => {
    const done = await runText('verify', 'acme  corp', ...VERIFY, '--as', 'vera');
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(
      /^Verified Acme Corp \(ben_us_ach_0001\) by call-back to \S*2233 by vera \(CLI\)\.\n$/,
    );
    expect(done.stdout).not.toContain('555 0100');
    const json = await run('verify', 'ben_us_ach_0001', ...VERIFY, '--as', 'vera', '--json');
    expect(json.json).toMatchObject({
      status: 'verified',
      beneficiaryId: 'ben_us_ach_0001',
      name: 'Acme Corp',
      verification: { method: 'callback', note: 'Jane Doe in AP confirmed' },
    });
  });

  it('keeps the last four digits of the number itself, not of its extension', async () => {
    const contact = '+1 (512) 555-0199 ext 7';
    const done = await run(
      'verify',
      'Acme Corp',
      ...VERIFY.slice(0, 2),
      '--contact',
      contact,
      ...VERIFY.slice(4),
      '--as',
      'vera',
      '--json',
    );
    expect(done.json?.verification, done.stderr).toMatchObject({ contactMasked: '••••0199' });
  });

  it("verifies a sandbox's seeded payee before any call, and keeps it verified once the sandbox starts", async () => {
    // No command of this file has asked the service anything yet: the sandbox never started.
    const done = await runText('verify', 'ben_de_swift_0001', ...VERIFY, '--as', 'vera');
    expect(done.stderr).toBe('');
    expect(done.stdout).toContain('Verified Rhein Maschinenbau GmbH (ben_de_swift_0001) by call-back');
    // A payout starts the embedded sandbox, which names its seeded payees: not over a person's record.
    const asked = await runCliHere([...payoutCall(120), '--as', 'alice', '--json'], env);
    expect(asked.json?.status, asked.stderr).toBe('pending_approval');
    const shown = await runCliHere(['approvals', 'show', asked.json.approvalId], {
      ...env,
      BANKOPS_OUTPUT: 'text',
      COLUMNS: '200',
    });
    const summary = shown.stdout;
    expect(summary).toContain('In the payee directory, with no record of who created or named it');
    expect(summary).toMatch(/Verified by call-back by vera \(CLI\) on \d{4}-\d\d-\d\d \(\S*2233\)/);
    expect(summary).not.toContain('Not verified');
    // `bankops call get_approval` shows it as `approvals show` does, payee facts included.
    const read = await runCliHere(['call', 'get_approval', `approvalId=${asked.json.approvalId}`], {
      ...env,
      BANKOPS_OUTPUT: 'text',
      COLUMNS: '200',
    });
    expect(read.stdout).toContain('In the payee directory, with no record of who created or named it');
    expect(read.stdout).toMatch(/Verified by call-back by vera \(CLI\)/);
  });

  it('says what is wrong with a command that cannot be, and exits 2', async () => {
    const cases: [string[], string][] = [
      [['name', 'ben_us_ach_0001'], 'payees name takes a beneficiary id and a name'],
      [['name', 'ben_us_ach_0001', 'Acme', 'Corp'], 'quote a name with spaces'],
      [['name', 'ben_us_ach_0001', 'Acme', '--note', 'x'], '--note belongs to payees verify'],
      [['verify', 'Acme Corp', '--method', 'callback', '--note', 'x'], 'payees verify needs --contact'],
      [['verify', ...VERIFY], 'payees verify takes one payee'],
      [['verify', 'Nobody Ltd', ...VERIFY, '--as', 'vera'], "no payee 'Nobody Ltd' in the payee directory"],
      [
        ['verify', 'Acme Crop', ...VERIFY, '--as', 'vera'],
        "no payee 'Acme Crop' in the payee directory (an id or a name); did you mean 'Acme Corp'?",
      ],
      [
        [
          'verify',
          'Acme Corp',
          '--method',
          'email',
          '--contact',
          '+1 555 0100',
          '--note',
          'x',
          '--as',
          'vera',
        ],
        'method',
      ],
      [['forget', 'x'], "unknown payees command 'forget'"],
      [
        ['name', 'ben_us_ach_0001', 'ACME  corp', '--as', 'alice'],
        "ben_us_ach_0001 is named 'Acme Corp' already (names are matched ignoring case and spaces): nothing to change",
      ],
      [
        ['verify', 'Acme Corp', '--method', 'callback', '--contact', 'abcd', '--note', 'x', '--as', 'vera'],
        'contact: must be a telephone number',
      ],
      [
        ['verify', 'Acme Corp', '--method', 'callback', '--contact', '+1 23', '--note', 'x', '--as', 'vera'],
        'contact: must have at least four digits',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runText(...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr + result.stdout).toContain(message);
    }
  });
  it('refuses to verify a name two payees share, and asks for the beneficiary id', async () => {
    const asked = await run('name', 'ben_us_fail_0001', 'Acme Corp', '--as', 'alice', '--json');
    const approved = await runCliHere(['approvals', 'approve', asked.json.approvalId, '--as', 'bob'], env);
    expect(approved.code, approved.stderr).toBe(0);
    const ambiguous = await runText('verify', 'Acme Corp', ...VERIFY, '--as', 'vera');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(
      /'Acme Corp' names 2 payees \(ben_us_ach_0001 ••••\d{4}, ben_us_fail_0001 ••••\d{4}\): give the beneficiary id/,
    );
    const byId = await runText('verify', 'ben_us_ach_0001', ...VERIFY, '--as', 'vera');
    expect(byId.stdout).toContain('Verified Acme Corp (ben_us_ach_0001)');
  });
});
