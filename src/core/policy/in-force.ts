import type { PolicyStamp } from '../audit/schema.js';
import type { Storage } from '../store/index.js';
import { governedVersion, recordFileVersion } from './record.js';
import type { Policy } from './schema.js';
import { policyHash } from './versions.js';

/** The policy a process decides by, and where it stands against the process's own file. */
export interface InForce {
  policy: Policy;
  stamp: PolicyStamp;
  /** Under governance: the store's version decides, whatever the file says. */
  governed: boolean;
  /** Governed, and the file differs from the version in force (it is not used). */
  fileDiffers: boolean;
}

export interface FilePolicy {
  path: string;
  policy: Policy;
  text: string;
}

/**
 * What decides, given the file a process loaded (docs/policy.md, "Governance"): under governance
 * the newest version of the store, and the file only says whether it differs; otherwise the file,
 * recorded as a version first when the newest differs (a file with `governance:` recorded so turns
 * governance on: that first time is the opt-in).
 */
export async function inForce(
  storage: Storage,
  file: FilePolicy,
  now: () => Date,
  usable: (text: string, source: string) => Policy,
): Promise<InForce> {
  const hash = policyHash(file.policy);
  const latest = await storage.read((stores) => stores.policies.latest());
  // A version with the file's hash says what the file says: it is governed exactly when the file is,
  // which needs no second decoding of its text (a YAML parse at every start).
  const same = latest !== undefined && latest.hash === hash && file.policy.governance === undefined;
  const governed = same ? undefined : governedVersion(latest);
  if (governed !== undefined)
    return {
      // What this deployment can honour (step-up needs an https public URL), as a file is checked.
      policy: usable(governed.version.text, `policy version ${governed.version.version}`),
      stamp: { version: governed.version.version, hash: governed.version.hash },
      governed: true,
      fileDiffers: governed.version.hash !== hash,
    };
  const recorded = await recordFileVersion(storage, {
    text: file.text,
    hash,
    source: `file:${file.path}`,
    proposedBy: 'system:policy-file',
    approvedBy: [],
    createdAt: now().toISOString(),
  });
  if (recorded.hash !== hash) {
    // Governance was turned on by another process in between: its version decides.
    return inForce(storage, file, now, usable);
  }
  return {
    policy: file.policy,
    stamp: { version: recorded.version, hash },
    governed: file.policy.governance !== undefined,
    fileDiffers: false,
  };
}
