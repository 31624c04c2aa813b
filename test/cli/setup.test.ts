import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIABLES } from '../../src/app/variables.js';
import { cliHome, runCliHere } from '../helpers/cli.js';

/** What a new user meets before the first call: completions, .env.example, config check, help. */

let home: ReturnType<typeof cliHome>;
beforeAll(() => {
  home = cliHome();
});
afterAll(() => home.cleanup());

const ROOT = join(import.meta.dirname, '..', '..');

/** What bash completes for the words typed (the last may be partial), with the script loaded. */
function bashCompletes(script: string, typed: string[]): Promise<string[]> {
  const file = join(home.dir, 'completion.bash');
  writeFileSync(file, script);
  const words = typed.map((w) => `'${w}'`).join(' ');
  const program = `source '${file}'; COMP_WORDS=(bankops ${words}); COMP_CWORD=${typed.length}; _bankops; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', program], (error, stdout) =>
      error === null ? resolve(stdout.split('\n').filter(Boolean)) : reject(error),
    );
  });
}

describe('bankops completion', () => {
  it('completes commands, subcommands, tool names and a tool’s fields in bash', async () => {
    const script = await runCliHere(['completion', 'bash'], home.env);
    expect(script.code).toBe(0);
    expect(await bashCompletes(script.stdout, ['ap'])).toEqual(['approvals']);
    expect(await bashCompletes(script.stdout, ['approvals', 'ap'])).toEqual(['approve']);
    expect(await bashCompletes(script.stdout, ['call', 'get_bal'])).toEqual(['get_balances']);
    expect(await bashCompletes(script.stdout, ['call', 'create_payout', 'purp'])).toEqual(['purposeCode=']);
    const nested = await bashCompletes(script.stdout, ['call', 'create_beneficiary', 'bank.acc']);
    expect(nested).toContain('bank.accountNumber=');
  });

  it('writes zsh and fish scripts from the same registry, and refuses another shell in two lines', async () => {
    for (const shell of ['zsh', 'fish']) {
      const script = await runCliHere(['completion', shell], home.env);
      expect(script.code).toBe(0);
      expect(script.stdout).toContain('get_balances');
      expect(script.stdout).toContain('purposeCode=');
    }
    const other = await runCliHere(['completion', 'tcsh'], home.env);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      "bankops: no completion for 'tcsh'; bash, zsh or fish\nusage: bankops completion bash|zsh|fish\n",
    );
  });
});

describe('.env.example and bankops config check', () => {
  it('lists every variable bankops reads, each with a line on what it does', () => {
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const listed = [...example.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]);
    expect(listed).toEqual(VARIABLES.map((v) => v.name));
    for (const v of VARIABLES) expect(example).toContain(`# ${v.what}`);
    for (const line of example.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    // Every variable the sources read is in the list.
    const sources = execFileSync('grep', ['-rhoE', '\\b(BANKOPS|SLACK)_[A-Z_]+\\b', join(ROOT, 'src')], {
      encoding: 'utf8',
    });
    const read = new Set(
      (sources.match(/\b(?:BANKOPS|SLACK)_[A-Z_]+\b/g) ?? []).filter((n) => !n.endsWith('_')),
    );
    const known = new Set(VARIABLES.map((v) => v.name));
    const unlisted = [...read].filter(
      (n) => !known.has(n) && !['SLACK_OFF_HINT', 'SLACK_EVENTS_PATH'].includes(n),
    );
    expect(unlisted).toEqual([]);
  });

  it('prints the configuration in force with secrets masked, and what each front end needs', async () => {
    const env = {
      ...home.env,
      BANKOPS_OUTPUT: 'text',
      COLUMNS: '80',
      SLACK_BOT_TOKEN: 'xoxb-secret-token-value',
      SLACK_SIGNING_SECRET: 'signing-secret-value',
    };
    const check = await runCliHere(['config', 'check'], env);
    expect(check.code).toBe(0);
    expect(check.stdout).not.toContain('secret-token-value');
    expect(check.stdout).not.toContain('signing-secret-value');
    expect(check.stdout).toMatch(/^ {2}SLACK_BOT_TOKEN +set \(23 characters, hidden\)$/m);
    expect(check.stdout).toMatch(/^ {2}BANKOPS_DB +\S+bankops\.db$/m);
    expect(check.stdout).toContain('no client can connect: the policy lists no MCP key');
    expect(check.stdout).toContain('also set BANKOPS_PUBLIC_URL');
    for (const line of check.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

    const bad = await runCliHere(['config', 'check', '--json'], { ...home.env, SLACK_APP_TOKEN: 'nope' });
    expect(bad.code).toBe(2);
    expect(bad.json.problems).toContain('SLACK_APP_TOKEN: must be an app-level token (xapp-…)');
    expect(JSON.stringify(bad.json)).not.toContain('nope');
  });

  it('says what applies to what is unset as the environment makes it', async () => {
    const text = { ...home.env, BANKOPS_OUTPUT: 'text', COLUMNS: '100' };
    const embedded = await runCliHere(['config', 'check'], text);
    expect(embedded.stdout).toMatch(/^Service \(BANKOPS_BASE_URL unset: the embedded sandbox\)$/m);
    expect(embedded.stdout).toMatch(/^ {2}BANKOPS_API_KEY +unset: the sandbox's$/m);
    expect(embedded.stdout).toMatch(/^ {2}BANKOPS_POLICY +unset: the shipped \/\S+\/policy\/default\.yaml$/m);
    const service = await runCliHere(['config', 'check'], {
      ...text,
      BANKOPS_BASE_URL: 'https://api.service.example',
    });
    expect(service.stdout).toMatch(/^Service$/m);
    expect(service.stdout).not.toContain('embedded sandbox');
    expect(service.stdout).toMatch(/^ {2}BANKOPS_API_KEY +unset: required with BANKOPS_BASE_URL/m);
  });
});

describe("README's configuration table", () => {
  it('lists exactly the variables bankops reads (src/app/variables.ts)', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Policy, approvals'));
    const rows = [...section.matchAll(/^\| (.*?) \|/gm)].map((m) => m[1] ?? '');
    const listed = rows.flatMap((cell) => [...cell.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]));
    expect([...listed].sort()).toEqual(VARIABLES.map((v) => v.name).sort());
  });

  it("and docs/slack.md's lists the Slack group's", () => {
    const doc = readFileSync(join(ROOT, 'docs', 'slack.md'), 'utf8');
    const listed = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    for (const v of VARIABLES.filter((v) => v.group === 'slack')) expect(listed, v.name).toContain(v.name);
  });
});
