import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, runCli } from '../helpers/cli.js';

// The built command runs its program with V8's code cache (src/cli/code-cache.ts, docs/operations.md
// "How fast the CLI starts"): made at a command's first run, used by the next, made again when V8
// refuses it, and never in the way of the command itself.
const home = cliHome();
afterAll(home.cleanup);

/** The cache files in `dir`'s bankops folder, by command. */
function caches(dir: string): Map<string, string> {
  const folder = join(dir, 'bankops');
  const names = (() => {
    try {
      return readdirSync(folder);
    } catch {
      return [];
    }
  })();
  return new Map(
    names
      .filter((name) => name.endsWith('.v8cache'))
      .map((name) => [name.replace(/^.*-([a-z]+)\.v8cache$/, '$1'), join(folder, name)]),
  );
}

describe('the CLI’s code cache', () => {
  it('is made by a command’s first run and used, unchanged, by the next; a mistyped command makes none', async () => {
    const dir = join(home.dir, 'cache-a');
    const env = { ...home.env, XDG_CACHE_HOME: dir };
    const first = await runCli(['tools', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const made = caches(dir).get('tools');
    expect(made).toBeDefined();
    const before = statSync(made ?? '');
    const second = await runCli(['tools', '--json'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // Accepted by V8, so not written again.
    const after = statSync(made ?? '');
    expect([after.ino, after.mtimeMs, after.size]).toEqual([before.ino, before.mtimeMs, before.size]);

    const help = await runCli(['--help'], env);
    expect(help.code).toBe(0);
    expect(caches(dir).has('other')).toBe(true);
    const typo = await runCli(['tols'], env);
    expect(typo.code).toBe(2);
    expect([...caches(dir).keys()].sort()).toEqual(['other', 'tools']);
  });

  it('replaces a cache V8 refuses, and a folder it cannot write costs the command nothing', async () => {
    const dir = join(home.dir, 'cache-b');
    const env = { ...home.env, XDG_CACHE_HOME: dir };
    const first = await runCli(['tools', '--json'], env);
    const made = caches(dir).get('tools') ?? '';
    writeFileSync(made, 'not a code cache');
    const refused = await runCli(['tools', '--json'], env);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toBe(first.stdout);
    expect(statSync(made).size).toBeGreaterThan(1000);

    // Below a file: no folder can be made there, whoever runs the test (root writes anywhere else).
    const blocked = join(home.dir, 'a-file');
    writeFileSync(blocked, '');
    const locked = join(blocked, 'cache');
    const readOnly = await runCli(['tools', '--json'], { ...home.env, XDG_CACHE_HOME: locked });
    expect(readOnly.code, readOnly.stderr).toBe(0);
    expect(readOnly.stdout).toBe(first.stdout);
    expect(readOnly.stderr).toBe('');
  });
});
