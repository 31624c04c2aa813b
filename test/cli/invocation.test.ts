import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invocation } from '../../src/cli/invocation.js';
import { tempDir } from '../helpers/audit.js';

/** How serve's banner tells a person to run the CLI: never through npx, which could fetch a stranger's package. */

const tmp = tempDir('bankops-invocation-');
afterAll(() => tmp.cleanup());

describe('invocation', () => {
  const project = join(tmp.dir, 'project');
  const script = join(project, 'dist', 'cli.js');
  mkdirSync(join(project, 'dist'), { recursive: true });
  writeFileSync(script, '#!/usr/bin/env node\n');
  chmodSync(script, 0o755);

  it('is `bankops` when that name on PATH is this CLI (npm link)', () => {
    const bin = join(tmp.dir, 'bin');
    mkdirSync(bin);
    symlinkSync(script, join(bin, 'bankops'));
    expect(invocation({ PATH: `/nonexistent:${bin}` }, tmp.dir, script)).toBe('bankops');
  });

  it('is node and the CLI file otherwise, relative to the working directory inside the project', () => {
    const other = join(tmp.dir, 'other-bin');
    mkdirSync(other);
    writeFileSync(join(other, 'bankops'), '#!/bin/sh\n', { mode: 0o755 });
    expect(invocation({ PATH: other }, project, script)).toBe(`node ${join('dist', 'cli.js')}`);
    expect(invocation({ PATH: other }, '/', script)).toBe(`node ${script}`);
    expect(invocation({}, join(tmp.dir, 'elsewhere'), script)).toBe(`node ${script}`);
  });
});
