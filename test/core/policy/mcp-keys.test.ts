import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parsePolicyText, resolveMcpKey, sha256Hex } from '../../../src/core/policy/index.js';

const keyA = 'bko_live_4f1c2e9a7d';
const keyB = 'bko_live_8b3d0f6e21';

describe('MCP key resolution', () => {
  const policy = parsePolicyText(
    [
      'mcpKeys:',
      `  - { name: desktop-alice, sha256: ${sha256Hex(keyA)} }`,
      // Upper-case digests are accepted and normalised.
      `  - { name: ci-bot, sha256: ${sha256Hex(keyB).toUpperCase()} }`,
      'rules: []',
    ].join('\n'),
    'keys.yaml',
  );

  it('computes the digest the docs tell operators to store', () => {
    expect(sha256Hex('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('resolves a presented key to the name of the entry with its digest', () => {
    expect(resolveMcpKey(policy, keyA)).toBe('desktop-alice');
    expect(resolveMcpKey(policy, keyB)).toBe('ci-bot');
  });

  it('resolves nothing for a wrong, empty or digest-as-key value', () => {
    expect(resolveMcpKey(policy, `${keyA} `)).toBeUndefined();
    expect(resolveMcpKey(policy, keyA.toUpperCase())).toBeUndefined();
    expect(resolveMcpKey(policy, '')).toBeUndefined();
    // Knowing the stored digest does not let anyone in: it is hashed again.
    expect(resolveMcpKey(policy, sha256Hex(keyA))).toBeUndefined();
    expect(resolveMcpKey({ mcpKeys: [] }, keyA)).toBeUndefined();
  });
});
