import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, runCliHere as runCli } from '../helpers/cli.js';

/** Named contexts (`--context`, BANKOPS_CONTEXT) and saying where the CLI talks (`config check`, `--verbose`). */

let home: ReturnType<typeof cliHome>;
let env: Record<string, string>;
let file: string;
beforeAll(() => {
  home = cliHome();
  file = join(home.dir, 'contexts.yaml');
  writeFileSync(
    file,
    [
      'contexts:',
      '  sandbox:',
      `    BANKOPS_DB: ${join(home.dir, 'sandbox.db')}`,
      '  prod:',
      `    BANKOPS_DB: ${join(home.dir, 'prod.db')}`,
      '    BANKOPS_APPROVAL_TTL_SECONDS: 600',
      '',
    ].join('\n'),
  );
  // The shell still holds another database: a context in force does not use it.
  env = { ...home.env, BANKOPS_CONTEXTS_FILE: file, BANKOPS_OUTPUT: 'text', COLUMNS: '200' };
});
afterAll(() => home.cleanup());

describe('named contexts', () => {
  it('take the service and database from the context chosen, and config check says so', async () => {
    const checked = await runCli(['--context', 'prod', 'config', 'check', '--json'], env);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.json.where).toEqual({
      context: `prod, from ${file}`,
      database: `the SQLite file ${join(home.dir, 'prod.db')}`,
      service: `the embedded sandbox (state in ${join(home.dir, 'prod.sandbox.db')})`,
    });
    const byVariable = await runCli(['config', 'check', '--json'], { ...env, BANKOPS_CONTEXT: 'sandbox' });
    expect(byVariable.json.where.database).toBe(`the SQLite file ${join(home.dir, 'sandbox.db')}`);
    const none = await runCli(['config', 'check'], env);
    expect(none.stdout).toMatch(/Where the CLI talks/);
    expect(none.stdout).toMatch(/Context\s+none \(the environment alone\)/);
    expect(none.stdout).toContain(`the SQLite file ${home.dbPath}`);
  });

  it('--verbose says on stderr which database and service a command uses', async () => {
    const listed = await runCli(['--verbose', '--context', 'sandbox', 'approvals', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toBe(
      `bankops: context sandbox (${file}); database: the SQLite file ${join(home.dir, 'sandbox.db')}; service: the embedded sandbox (state in ${join(home.dir, 'sandbox.sandbox.db')})\n`,
    );
  });

  it('refuses a context the file does not have, naming the one meant, and a variable bankops does not read', async () => {
    const typo = await runCli(['--context', 'prd', 'approvals', 'list'], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      `no context 'prd' in ${file}; did you mean prod? (contexts: sandbox, prod)`,
    );
    const missing = await runCli(['--context', 'prod', 'approvals', 'list'], {
      ...env,
      BANKOPS_CONTEXTS_FILE: join(home.dir, 'none.yaml'),
    });
    expect(missing.stderr).toContain(`no contexts file at ${join(home.dir, 'none.yaml')}`);
    const bad = join(home.dir, 'bad.yaml');
    writeFileSync(bad, 'contexts:\n  prod:\n    BANKOPS_DATABSE_URL: postgres://x\n');
    const unknown = await runCli(['--context', 'prod', 'approvals', 'list'], {
      ...env,
      BANKOPS_CONTEXTS_FILE: bad,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'sets BANKOPS_DATABSE_URL, which bankops does not read; did you mean BANKOPS_DATABASE_URL?',
    );
  });
});
