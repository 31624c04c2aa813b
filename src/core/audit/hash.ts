import { hash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import type { AuditContent } from './schema.js';

/** The `prev_hash` of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * `sha256(prev_hash || canonicalJson(content))`, hex; the content includes `seq`. `evidence` and
 * `policy` are hashed only when an entry has them (canonical JSON leaves out what is undefined).
 */
export function entryHash(
  prevHash: string,
  content: Readonly<
    Record<Exclude<keyof AuditContent, 'evidence' | 'policy'>, unknown> & {
      evidence?: unknown;
      policy?: unknown;
    }
  >,
): string {
  // `content.input` may be a CanonicalText of the same JSON: the same bytes are hashed either way.
  return hashOfText(prevHash, canonicalJson(content));
}

/** `sha256(prev_hash || text)`, hex, where `text` is the content's canonical JSON already written. */
export function hashOfText(prevHash: string, text: string): string {
  return hash('sha256', `${prevHash}${text}`, 'hex');
}
