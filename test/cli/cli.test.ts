import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/core/audit/index.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { cliHome, runCli } from '../helpers/cli.js';

let home: ReturnType<typeof cliHome>;
beforeAll(() => {
  home = cliHome();
});
afterAll(() => home.cleanup());

describe('bankops tools', () => {
  it('prints a table of every tool, and JSON with the input schema and hints', async () => {
    const table = await runCli(['tools'], home.env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+TOOLSET\s+KIND\s+TITLE/);
    expect(table.stdout).toContain('list_accounts');

    const json = await runCli(['tools', '--json', '--toolsets', 'issuing_b'], home.env);
    expect(json.code).toBe(0);
    expect(json.json.length).toBe(29);
    for (const tool of json.json) {
      expect(tool).toMatchObject({ toolset: 'issuing_b', name: expect.stringMatching(/^[a-z0-9_]{1,64}$/) });
      expect(tool.title).toEqual(expect.any(String));
      expect(tool.inputSchema.type).toBe('object');
      expect(Object.keys(tool.hints).sort()).toEqual(['destructive', 'idempotent', 'openWorld', 'readOnly']);
    }
    const readOnly = await runCli(['tools', '--json', '--read-only'], home.env);
    expect(readOnly.json.every((t: { hints: { readOnly: boolean } }) => t.hints.readOnly)).toBe(true);
  });

  it('refuses an unknown toolset, an empty list and an unknown flag with exit 2', async () => {
    const res = await runCli(['tools', '--toolset', 'nope'], home.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown toolset nope');
    const empty = await runCli(['tools', '--toolsets', ''], home.env);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('name at least one toolset');
    const flag = await runCli(['tools', '--toolsetz', 'banking'], home.env);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'bankops: unknown option --toolsetz; did you mean --toolsets?\n(bankops help tools lists the options)\n',
    );
  });
});

describe('bankops call', () => {
  it('lists accounts against the embedded sandbox with the company code from the configuration', async () => {
    const res = await runCli(['call', 'list_accounts', '--input', '{}'], home.env);
    expect(res.code).toBe(0);
    expect(res.json.status).toBe('ok');
    expect(res.json.output.accounts.map((a: { accountId: string }) => a.accountId)).toContain('acc_usd_0001');
  });

  it('exits 2 with field-level errors for invalid input, and for an unknown tool', async () => {
    const bad = await runCli(['call', 'get_account', '--input', '{"accountId": 5}'], home.env);
    expect(bad.code).toBe(2);
    expect(bad.json.status).toBe('invalid');
    expect(bad.json.errors[0].path).toBe('accountId');
    const unknown = await runCli(['call', 'no_such_tool'], home.env);
    expect(unknown.code).toBe(2);
    expect(unknown.json.message).toContain("unknown tool 'no_such_tool'");
    const notJson = await runCli(['call', 'list_accounts', '--input', '{nope'], home.env);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--input is not valid JSON');
    for (const notObject of ['null', '[1]', '"acc_usd_0001"']) {
      const res = await runCli(['call', 'get_account', '--input', notObject], home.env);
      expect(res.code, notObject).toBe(2);
      expect(res.stderr, notObject).toContain("--input must be a JSON object of the tool's fields");
    }
    const misspelt = await runCli(
      ['call', 'get_account', '--input', '{"accountid":"acc_usd_0001"}'],
      home.env,
    );
    expect(misspelt.code).toBe(2);
    expect(misspelt.json.errors).toEqual([
      { path: 'accountid', message: 'unknown field; did you mean accountId?' },
      { path: 'accountId', message: 'required' },
    ]);
  });

  it("exits 1 with the service's message when the service refuses", async () => {
    const res = await runCli(['call', 'get_account', '--input', '{"accountId":"acc_nope"}'], home.env);
    expect(res.code).toBe(1);
    expect(res.json).toMatchObject({ status: 'failed', error: { kind: 'service', httpStatus: 400 } });
    expect(res.json.error.message).toContain('acc_nope');
  });

  it('exits 3 when the policy denies the actor', async () => {
    const policy = `${home.dbPath}.policy.yaml`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      policy,
      'actors:\n  - match: { cli: viewer }\n    roles: [viewer]\nrules:\n  - readOnly: true\n    allow: [viewer]\n',
    );
    const res = await runCli(
      ['call', 'create_wallet_b', '--input', '{"cardholderId":"x","currency":"USD"}', '--as', 'viewer'],
      {
        ...home.env,
        BANKOPS_POLICY: policy,
      },
    );
    expect(res.code).toBe(3);
    expect(res.json.status).toBe('denied');
  });

  it('refuses a bad configuration value naming the variable', async () => {
    const res = await runCli(['call', 'list_accounts'], { ...home.env, BANKOPS_BASE_URL: 'not a url' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('BANKOPS_BASE_URL');
    const numbers = await runCli(['call', 'list_accounts'], {
      ...home.env,
      BANKOPS_TIMEOUT_MS: 'abc',
      BANKOPS_QUOTE_TOLERANCE_PERCENT: 'x',
    });
    expect(numbers.code).toBe(2);
    expect(numbers.stderr).toContain('BANKOPS_TIMEOUT_MS: must be a whole number');
    expect(numbers.stderr).toContain('BANKOPS_QUOTE_TOLERANCE_PERCENT: must be a number');
  });
});

describe('payout approved from the CLI by a second person, state kept across commands', () => {
  it('requests, refuses self-approval, executes on the second approver, and the balance moves', async () => {
    const before = await runCli(['call', 'get_balances'], home.env);
    const usd = (r: typeof before) =>
      r.json.output.balances.find((b: { currency: string }) => b.currency === 'USD')
        .availableBalance as number;
    const input = JSON.stringify({
      beneficiaryId: 'ben_de_swift_0001',
      sourceAccountId: 'acc_usd_0001',
      sourceAssetCode: 'USD',
      destinationAssetCode: 'EUR',
      destinationRail: 'SWIFT',
      amount: 1000,
      side: 'SOURCE',
      purposeCode: 'GOODS_PURCHASED',
    });
    const requested = await runCli(['call', 'create_payout', '--input', input, '--as', 'alice'], home.env);
    expect(requested.code).toBe(0);
    expect(requested.json.status).toBe('pending_approval');
    const id = requested.json.approvalId as string;

    const listed = await runCli(['approvals', 'list', '--state', 'pending', '--json'], home.env);
    expect(listed.json.map((a: { id: string }) => a.id)).toContain(id);

    const self = await runCli(['approvals', 'approve', id, '--as', 'alice'], home.env);
    expect(self.code).toBe(3);
    expect(self.json.status).toBe('refused');

    const approved = await runCli(['approvals', 'approve', id, '--as', 'bob'], home.env);
    expect(approved.code).toBe(0);
    expect(approved.json.approval.state).toBe('succeeded');
    const payoutId = approved.json.approval.result.payoutId as string;

    const payout = await runCli(['call', 'get_payout', '--input', JSON.stringify({ payoutId })], home.env);
    expect(payout.json.output.payoutId).toBe(payoutId);
    const after = await runCli(['call', 'get_balances'], home.env);
    expect(usd(after)).toBeCloseTo(usd(before) - approved.json.approval.result.quote.totalDebitAmount, 2);
  });
});

describe('bankops audit', () => {
  it('exports to a reader that stops early (| head) without a stack trace, exit 0', async () => {
    const own = cliHome();
    try {
      const log = new AuditLog(sqliteStorage(openDatabase(own.dbPath)));
      for (let i = 0; i < 400; i += 1) {
        await log.append({
          actor: 'cli:alice',
          frontEnd: 'cli',
          tool: 'list_accounts',
          input: { i },
          decision: 'allow',
          event: 'executed',
          outcome: 'ok',
        });
      }
      const child = spawn(
        process.execPath,
        [join(import.meta.dirname, '..', '..', 'dist', 'cli.js'), 'audit', 'export'],
        {
          env: { ...process.env, ...own.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const [first] = (await once(child.stdout, 'data')) as [Buffer];
      expect(JSON.parse(first.toString().split('\n')[0] ?? '').seq).toBe(1);
      child.stdout.destroy();
      const [code] = await once(child, 'exit');
      expect(stderr).not.toContain('EPIPE');
      expect(code).toBe(0);
    } finally {
      own.cleanup();
    }
  });

  it('tails, exports JSON lines, verifies, and names the first tampered entry', async () => {
    const tail = await runCli(['audit', 'tail', '-n', '5', '--json'], home.env);
    expect(tail.code).toBe(0);
    expect(tail.json.length).toBe(5);
    const exported = await runCli(['audit', 'export'], home.env);
    const lines = exported.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(JSON.parse(lines[0] ?? '{}').seq).toBe(1);

    const ok = await runCli(['audit', 'verify'], home.env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/audit log intact: \d+ entries\nhead \d+:[0-9a-f]{64}/);

    // Someone with write access to the file drops the trigger and edits an entry.
    const db = new Database(home.dbPath);
    db.exec('DROP TRIGGER IF EXISTS audit_log_no_update');
    for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as {
      name: string;
    }[]) {
      if (name.startsWith('audit_log')) db.exec(`DROP TRIGGER ${name}`);
    }
    db.prepare("UPDATE audit_log SET actor = 'cli:mallory' WHERE seq = 3").run();
    db.close();
    const broken = await runCli(['audit', 'verify'], home.env);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(
      /^audit log BROKEN at entry 3: content does not match its hash \(the entry was changed\) \(\d+ entries checked\)$/m,
    );
  });

  it('suggests the audit command meant, before opening the database', async () => {
    const run = await runCli(['audit', 'verfy'], {
      ...home.env,
      BANKOPS_DATABASE_URL: 'postgres://ops@127.0.0.1:1/bank',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("bankops: unknown audit command 'verfy'; did you mean verify?");
  });
});

describe('help', () => {
  it('has help for every command', async () => {
    for (const command of ['tools', 'call', 'approvals', 'audit', 'sandbox']) {
      const res = await runCli(['help', command], home.env);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`bankops ${command}`);
    }
    const verify = await runCli(['audit', 'verify', '--help'], home.env);
    expect(verify.stdout).toContain('Exit status: 0 done (verify: the chain is intact');
    const top = await runCli([], home.env);
    expect(top.code).toBe(2);
    expect(top.stdout).toContain('Usage:');
  });

  it('answers --help on every command with exit 0, and an unknown help topic with exit 2', async () => {
    for (const command of ['tools', 'call', 'approvals', 'audit', 'sandbox', 'mcp', 'serve']) {
      const res = await runCli([command, '--help'], home.env);
      expect(res.code, command).toBe(0);
      expect(`${res.stdout}${res.stderr}`, command).toContain(`bankops ${command}`);
    }
    for (const topic of ['nope', 'constructor', '__proto__']) {
      const unknown = await runCli(['help', topic], home.env);
      expect(unknown.code, topic).toBe(2);
      expect(unknown.stderr).toContain(`bankops: no help for '${topic}': it is neither a command nor a tool`);
    }
    const inherited = await runCli(['toString'], home.env);
    expect(inherited.code).toBe(2);
    expect(inherited.stderr).toContain("unknown command 'toString'");
  });

  it('says a port is taken in one line, without a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const res = await runCli(['sandbox', '--port', String(port)], home.env);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        `bankops: 127.0.0.1:${port} is already in use; choose another --port (0 picks a free one)\n`,
      );
    } finally {
      taken.close();
    }
  });

  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const res = await runCli(['--version'], home.env);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${version}\n`);
  });

  it('refuses a bad --as or BANKOPS_ACTOR as a usage error (exit 2), naming which', async () => {
    const flag = await runCli(['call', 'get_balances', '--as', 'bob smith'], home.env);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      "--as must be letters, digits and . _ @ - only (at most 64), got 'bob smith'",
    );
    const env = await runCli(['approvals', 'list'], { ...home.env, BANKOPS_ACTOR: 'bob smith' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('BANKOPS_ACTOR');
  });
});
