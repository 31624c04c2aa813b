import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** `prepare` builds only when dist/ is missing or older than its sources: `npm ci && npm link` builds once. */

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'build-if-stale.mjs');
const root = mkdtempSync(join(tmpdir(), 'bankops-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(path: string, secondsAgo: number): void {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, '');
  const at = Date.now() / 1000 - secondsAgo;
  utimesSync(full, at, at);
}

const due = (): number => {
  try {
    execFileSync(process.execPath, [SCRIPT, '--check', root]);
    return 0;
  } catch (error) {
    return (error as { status: number }).status;
  }
};

describe('build-if-stale', () => {
  it('asks for a build when dist is missing, not when it is newer than every source, again after an edit', () => {
    file('src/cli.ts', 100);
    file('package.json', 100);
    expect(due()).toBe(1);
    file('dist/cli.js', 50);
    expect(due()).toBe(1);
    file('dist/mcp-bundle/bankops-mcp.mjs', 50);
    expect(due()).toBe(1);
    file('dist/web-assets/passkey-page.js', 50);
    expect(due()).toBe(1);
    file('dist/default-policy.json', 50);
    expect(due()).toBe(0);
    file('src/cli/main.ts', 10);
    expect(due()).toBe(1);
    // The shipped policy is decoded at build: an edit of it is due a build too.
    file('src/cli/main.ts', 60);
    expect(due()).toBe(0);
    file('policy/default.yaml', 10);
    expect(due()).toBe(1);
  });
});
