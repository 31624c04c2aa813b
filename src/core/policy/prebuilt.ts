import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { packageFile } from '../package-root.js';
import { defaultPolicyPath } from './default-path.js';

/**
 * Where `npm run build` writes the shipped policy as decoded from its YAML (scripts/bundle-cli.mjs),
 * with the SHA-256 of the text it was decoded from: a command on the default policy then neither
 * runs the YAML parser nor warms it up (a good part of a short command's start).
 */
export const PREBUILT_POLICY = ['dist', 'default-policy.json'] as const;

export interface PrebuiltPolicy {
  sha256: string;
  /** The document as the YAML parser gave it: still to be validated like any other. */
  value: unknown;
}

export const textDigest = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The build's decoding of `text`, when `source` is the shipped policy and the text is still the one
 * the build decoded; `undefined` otherwise (an edited default, a policy of one's own, no build).
 */
export function prebuiltDecoding(text: string, source: string): unknown {
  if (source !== defaultPolicyPath()) return undefined;
  let prebuilt: PrebuiltPolicy;
  try {
    prebuilt = JSON.parse(readFileSync(packageFile(...PREBUILT_POLICY), 'utf8')) as PrebuiltPolicy;
  } catch {
    return undefined;
  }
  return prebuilt.sha256 === textDigest(text) ? prebuilt.value : undefined;
}
