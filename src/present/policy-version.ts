import type { PolicyVersion } from '../core/policy/versions.js';

/**
 * Who approved a policy version, in words: the people, or why nobody did, from where it came (a
 * file loaded without governance, a recovery by an owner of the database, a proposal that ran
 * without votes). A version from a proposal never reads as loaded from a file.
 */
export function approvedByWords(v: Pick<PolicyVersion, 'approvedBy' | 'source'>): string {
  if (v.approvedBy.length > 0) return v.approvedBy.join(', ');
  const [kind, ...rest] = v.source.split(':');
  const where = rest.join(':');
  if (kind === 'file') return 'nobody (loaded from a file)';
  if (kind === 'recovery') return 'nobody (put in force by policy recover)';
  if (kind === 'proposal') return `nobody (proposal ${where} ran without votes)`;
  return `nobody (from ${v.source})`;
}
