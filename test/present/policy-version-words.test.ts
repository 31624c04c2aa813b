import { describe, expect, it } from 'vitest';
import { approvedByWords } from '../../src/present/policy-version.js';

describe('who approved a policy version, in words', () => {
  it('names the approvers, or why nobody did from where the version came', () => {
    expect(approvedByWords({ approvedBy: ['cli:ada', 'cli:bob'], source: 'proposal:apr_1' })).toBe(
      'cli:ada, cli:bob',
    );
    expect(approvedByWords({ approvedBy: [], source: 'file:/etc/bankops/policy.yaml' })).toBe(
      'nobody (loaded from a file)',
    );
    // A version from a proposal never reads as loaded from a file.
    expect(approvedByWords({ approvedBy: [], source: 'proposal:apr_0123' })).toBe(
      'nobody (proposal apr_0123 ran without votes)',
    );
    expect(approvedByWords({ approvedBy: [], source: 'recovery:/tmp/p.yaml' })).toBe(
      'nobody (put in force by policy recover)',
    );
  });
});
