import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { defaultPolicyPath } from '../../src/core/policy/default-path.js';
import { cliEnv, cliHome, runCliHere } from '../helpers/cli.js';
import { type IdpPerson, signIn, startTestIdp, type TestIdp } from '../helpers/idp.js';

const PUBLIC_URL = 'https://bankops.bank.example';
const PEOPLE: Record<string, IdpPerson> = {
  olivia: { email: 'olivia@bank.example', groups: ['payments-ops'] },
  ben: { email: 'ben@bank.example', groups: ['treasury'] },
};

let idp: TestIdp;
let home: ReturnType<typeof cliHome>;
let env: Record<string, string>;

function policyYaml(): string {
  const policy = parse(readFileSync(defaultPolicyPath(), 'utf8')) as Record<string, unknown>;
  policy.cli = 'login';
  policy.actors = [
    { match: { oidc: { email: 'olivia@bank.example' } }, roles: ['viewer', 'operator'], person: 'olivia' },
    { match: { oidc: { group: 'treasury' } }, roles: ['viewer', 'approver'] },
  ];
  return stringify(policy);
}

beforeAll(async () => {
  idp = await startTestIdp({
    resource: `${PUBLIC_URL}/mcp`,
    people: PEOPLE,
    clients: [{ client_id: 'bankops-cli', device: true }],
  });
  home = cliHome();
  const policyPath = join(home.dir, 'policy.yaml');
  writeFileSync(policyPath, policyYaml());
  env = {
    BANKOPS_DB: home.dbPath,
    BANKOPS_POLICY: policyPath,
    BANKOPS_PUBLIC_URL: PUBLIC_URL,
    BANKOPS_OAUTH_ISSUER: idp.issuer,
    BANKOPS_OAUTH_CLIENT_ID: 'bankops-cli',
  };
}, 30_000);

afterAll(async () => {
  await idp?.close();
  home?.cleanup();
});

/** `bankops login`, the person confirming the code in their browser while the CLI polls. */
async function login(account: string, options: string[] = [], runEnv = env): Promise<string> {
  const { main } = await import('../../src/cli/main.js');
  let stdout = '';
  let stderr = '';
  let shown: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve) => {
    shown = resolve;
  });
  const running = main([...options, 'login'], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        const match = /Open (\S+) and confirm the code/.exec(stderr);
        if (match?.[1] !== undefined) shown(match[1]);
      },
    },
    env: cliEnv(runEnv),
    cwd: process.cwd(),
  });
  const confirmed = Promise.race([url, running.then(() => undefined)]).then((found) =>
    found === undefined ? undefined : signIn(idp, found, account),
  );
  const [status] = await Promise.all([running, confirmed]);
  expect(status, stderr).toBe(0);
  return stdout;
}

describe('bankops login, logout, whoami', () => {
  it('refuses commands without a sign-in when the policy says cli: login, and refuses --as', async () => {
    const unsigned = await runCliHere(['call', 'list_accounts'], env);
    expect(unsigned.code).not.toBe(0);
    expect(unsigned.stderr).toContain('the policy says cli: login: sign in first with bankops login');
    const as = await runCliHere(['call', 'list_accounts', '--as', 'ben'], env);
    expect(as.code).not.toBe(0);
    expect(as.stderr).toContain('--as ben: the policy says cli: login');
  });

  it('signs in by the device flow; the request and the approval are by the IdP people, never the requester', async () => {
    expect(await login('olivia')).toBe('Signed in as olivia (via CLI)\n');
    expect(statSync(join(home.dir, 'signin.json')).mode & 0o777).toBe(0o600);
    expect((await runCliHere(['whoami'], env)).stdout).toBe('olivia (via CLI)\n');

    const requested = await runCliHere(
      [
        'call',
        'create_payout',
        'beneficiaryId=ben_de_swift_0001',
        'sourceAccountId=acc_usd_0001',
        'sourceAssetCode=USD',
        'destinationAssetCode=EUR',
        'destinationRail=SWIFT',
        'amount=1000',
        'side=SOURCE',
        'purposeCode=GOODS_PURCHASED',
        '--json',
      ],
      env,
    );
    const approvalId = /apr_\w+/.exec(requested.stdout + requested.stderr)?.[0];
    expect(approvalId, requested.stdout + requested.stderr).toBeDefined();
    const own = await runCliHere(['approvals', 'approve', approvalId ?? ''], env);
    expect(own.code).not.toBe(0);

    expect((await runCliHere(['logout'], env)).stdout).toBe('Signed out\n');
    expect((await runCliHere(['whoami'], env)).stdout).toMatch(/^Not signed in/);
    expect(await login('ben')).toBe('Signed in as ben@bank.example (via CLI)\n');
    const approved = await runCliHere(['approvals', 'approve', approvalId ?? '', '--json'], env);
    expect(approved.code, approved.stderr).toBe(0);

    const audit = await runCliHere(['audit', 'tail', '-n', '50', '--json'], env);
    const entries = audit.json as { actor: string; event: string; decision: string }[];
    expect(Array.isArray(entries), audit.stdout.slice(0, 400) + audit.stderr).toBe(true);
    expect(entries.find((e) => e.event === 'requested' && e.decision === 'approval_required')?.actor).toMatch(
      /^olivia \(via CLI\) \[iss=http:\/\/127\.0\.0\.1:\d+ sub=olivia jti=/,
    );
    expect(entries.find((e) => e.event === 'decided' && e.decision === 'approved')?.actor).toMatch(
      /^ben@bank\.example \(via CLI\) \[iss=/,
    );
    expect(readFileSync(join(home.dir, 'signin.json'), 'utf8')).not.toBe('');
  }, 60_000);

  it('signs out a person the IdP disabled, at the refresh', async () => {
    const file = join(home.dir, 'signin.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { expiresAt: number };
    writeFileSync(file, JSON.stringify({ ...saved, expiresAt: 0 }), { mode: 0o600 });
    (PEOPLE.ben as IdpPerson).disabled = true;
    const refused = await runCliHere(['whoami'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'your sign-in has ended (the identity provider refused to refresh it); run: bankops login',
    );
  });

  it('keeps one sign-in per named context (mode 0600), and whoami says which context', async () => {
    const contexts = join(home.dir, 'contexts.yaml');
    // Both contexts use the same data directory: their sign-ins still stay apart.
    writeFileSync(
      contexts,
      stringify({
        contexts: {
          prod: { BANKOPS_DB: home.dbPath, BANKOPS_POLICY: env.BANKOPS_POLICY },
          staging: { BANKOPS_DB: home.dbPath, BANKOPS_POLICY: env.BANKOPS_POLICY },
        },
      }),
    );
    const withFile = { ...env, BANKOPS_CONTEXTS_FILE: contexts };
    expect(await login('olivia', ['--context', 'prod'], withFile)).toBe('Signed in as olivia (via CLI)\n');
    const prodFile = join(home.dir, 'signin.prod.json');
    expect(statSync(prodFile).mode & 0o777).toBe(0o600);

    const prod = await runCliHere(['--context', 'prod', 'whoami'], withFile);
    expect(prod.stdout, prod.stderr).toBe('olivia (via CLI) (context prod)\n');
    const byVariable = await runCliHere(['whoami', '--json'], { ...withFile, BANKOPS_CONTEXT: 'prod' });
    expect(byVariable.json).toMatchObject({ signedIn: true, actor: 'olivia (via CLI)', context: 'prod' });
    const staging = await runCliHere(['--context', 'staging', 'whoami'], withFile);
    expect(staging.stdout).toMatch(/^Not signed in \(context staging\); acting as /);
    const stagingCall = await runCliHere(['--context', 'staging', 'call', 'list_accounts'], withFile);
    expect(stagingCall.stderr).toContain('the policy says cli: login: sign in first with bankops login');

    // Signing out of one context leaves the others' sign-ins alone.
    const before = readFileSync(join(home.dir, 'signin.json'), 'utf8');
    expect((await runCliHere(['--context', 'prod', 'logout'], withFile)).stdout).toBe('Signed out\n');
    expect(existsSync(prodFile)).toBe(false);
    expect(readFileSync(join(home.dir, 'signin.json'), 'utf8')).toBe(before);
  }, 60_000);
});
