import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/approvals.js';
import { payoutCall } from '../helpers/cli.js';

/**
 * bankops as a host installs it (docs/deploy.md, "Installing it on a host"): `npm pack`, then
 * `npm install -g` of that file into an empty prefix, then `bankops serve` and the CLI from a
 * directory that is not the checkout, with only what the package holds: the bundles, the web
 * assets and the default policy. better-sqlite3's install script is given the native module this
 * checkout already built, as a local prebuilt (prebuild-install's `local-prebuilds`), instead of
 * compiling it again: the same file, a minute less. The rest comes from npm's cache (or registry).
 */

const ROOT = join(import.meta.dirname, '..', '..');
const KEY = `bk_${randomBytes(24).toString('hex')}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { ...options, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout,
          stderr,
        });
      },
    );
  });
}

/** This process's environment without bankops's variables, npm's per-run settings or tsx's loader. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('BANKOPS_') && !key.startsWith('npm_') && key !== 'NODE_OPTIONS',
    ),
  );
}

describe('the npm package, installed with npm install -g into an empty prefix', () => {
  let dir: string;
  let prefix: string;
  let installed: string;
  /** The environment of the installed commands: its bin first on PATH, a database of its own. */
  let env: NodeJS.ProcessEnv;
  /** A directory that is neither the checkout nor the package. */
  let elsewhere: string;
  let serve: ChildProcess | undefined;
  let serveErr = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bankops-package-'));
    prefix = join(dir, 'prefix');
    elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    // dist/ is built by the tests' global setup; --ignore-scripts: no second build check.
    const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], {
      cwd: ROOT,
      env: cleanEnv(),
    });
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = join(dir, readdirSync(dir).find((name) => name.endsWith('.tgz')) ?? 'missing.tgz');

    // The native module this checkout built, where prebuild-install looks for a local prebuilt.
    const sqlite = join(ROOT, 'node_modules', 'better-sqlite3');
    const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
    const prebuilds = join(dir, 'prebuilds');
    mkdirSync(prebuilds);
    const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    const tarred = await run('tar', ['-czf', join(prebuilds, name), 'build/Release/better_sqlite3.node'], {
      cwd: sqlite,
      env: cleanEnv(),
    });
    expect(tarred.code, tarred.stderr).toBe(0);

    const install = await run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--allow-scripts=better-sqlite3',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        tarball,
      ],
      { cwd: elsewhere, env: { ...cleanEnv(), npm_config_better_sqlite3_local_prebuilds: prebuilds } },
    );
    expect(install.code, install.stderr).toBe(0);
    installed = join(prefix, 'lib', 'node_modules', 'bankops');
    env = {
      ...cleanEnv(),
      PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
      BANKOPS_DB: join(dir, 'data', 'bankops.db'),
      BANKOPS_ACTOR: 'alice',
    };
  }, 300_000);

  afterAll(async () => {
    if (serve !== undefined && serve.exitCode === null) {
      const exited = once(serve, 'exit');
      serve.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds the bundles, the web assets and the default policy, and none of the sources', () => {
    const files = readdirSync(installed, { recursive: true })
      .map(String)
      .filter((file) => !file.startsWith('node_modules'));
    for (const file of [
      'dist/cli.js',
      'dist/cli-bundle/program.cjs',
      'dist/cli-bundle/writer-thread.js',
      'dist/mcp-bundle/bankops-mcp.mjs',
      'dist/mcp-bundle/tool-listings.json',
      'dist/web-assets/passkey-page.js',
      'dist/web-assets/page.css',
      'dist/default-policy.json',
      'policy/default.yaml',
    ])
      expect(files).toContain(file);
    expect(files.filter((file) => file.startsWith('src/') || file.endsWith('.ts'))).toEqual([]);
  });

  it('answers an assistant over stdio as bankops-mcp, on the default policy', async () => {
    const transport = new StdioClientTransport({
      command: join(prefix, 'bin', 'bankops-mcp'),
      cwd: elsewhere,
      env: Object.fromEntries(
        Object.entries({ ...env, BANKOPS_DB: join(dir, 'mcp', 'bankops.db') }).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        ),
      ),
    });
    const client = new Client({ name: 'package-install-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('get_balances');
      const read = await client.callTool({ name: 'get_balances', arguments: {} });
      expect(read.isError ?? false).toBe(false);
      expect(read.structuredContent).toHaveProperty('balances');
    } finally {
      await client.close();
    }
  });

  it('serves from another directory, and its CLI asks, approves and verifies on the default policy', async () => {
    // serve on a copy of the shipped policy with one MCP key (docs/mcp-http.md), so an assistant's
    // call reaches the audit log through serve's writer thread, as bundled.
    const policy = join(dir, 'policy.yaml');
    const digest = createHash('sha256').update(KEY).digest('hex');
    writeFileSync(
      policy,
      readFileSync(join(installed, 'policy', 'default.yaml'), 'utf8')
        .replace(/^mcpKeys: \[\]$/m, `mcpKeys:\n  - { name: install-test, sha256: ${digest} }`)
        .replace(/^actors:$/m, 'actors:\n  - match: { mcpKey: install-test }\n    roles: [viewer]'),
    );
    serve = spawn('bankops', ['serve', '--port', '0'], {
      cwd: elsewhere,
      env: { ...env, BANKOPS_POLICY: policy },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const started = serve;
    const url = await new Promise<string>((resolve, reject) => {
      started.stderr?.on('data', (chunk: Buffer) => {
        serveErr += chunk.toString();
        const match = /listening on (http:\/\/\S+)[\s\S]*Ctrl-C to stop/.exec(serveErr);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      started.once('exit', (code) => reject(new Error(`serve exited ${code}: ${serveErr}`)));
    });
    // The banner names the installed command, as a person on this host types it.
    expect(serveErr).toMatch(/^bankops serve$/m);
    expect(serveErr).toContain('next, in another terminal: bankops call get_balances');
    expect(serveErr).toContain('1 MCP key');
    expect((await fetch(`${url}/livez`)).status).toBe(200);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200, '/readyz', 30_000);

    // The CLI, on the package's own policy, against the sandbox serve runs.
    const asked = await run('bankops', [...payoutCall(250), '--json'], { cwd: elsewhere, env });
    expect(asked.code, asked.stderr).toBe(0);
    const { approvalId } = JSON.parse(asked.stdout) as { status: string; approvalId: string };
    expect(approvalId).toMatch(/^apr_/);
    const approved = await run('bankops', ['approvals', 'approve', approvalId, '--as', 'bob', '--json'], {
      cwd: elsewhere,
      env,
    });
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'executed' });

    // An assistant's read through serve: its audit entries are committed by serve's writer thread.
    const called = await run(
      process.execPath,
      [join(ROOT, 'scripts', 'mcp-call.mjs'), `${url}/mcp`, 'get_balances'],
      {
        cwd: ROOT,
        env: { ...cleanEnv(), BANKOPS_MCP_KEY: KEY },
      },
    );
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toHaveProperty('balances');
    const exported = async () =>
      (await run('bankops', ['audit', 'export'], { cwd: elsewhere, env })).stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { frontEnd: string; tool: string; outcome: string });
    await until(
      async () =>
        (await exported()).some(
          (e) => e.frontEnd === 'mcp' && e.tool === 'get_balances' && e.outcome === 'ok',
        ),
      "the assistant's read in the audit log",
      30_000,
    );

    const verified = await run('bankops', ['audit', 'verify'], { cwd: elsewhere, env });
    expect(verified.code, verified.stderr).toBe(0);
    const exited = once(started, 'exit');
    started.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
    expect(serveErr).not.toMatch(/thread did not start|thread stopped|"level":"error"/);
  }, 180_000);
});
