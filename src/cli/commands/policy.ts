import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { optional } from '../../core/optional.js';
import { PROPOSE_POLICY } from '../../core/policy/change-rule.js';
import { diffPolicies } from '../../core/policy/diff.js';
import { isPolicyError, parsePolicyText, readPolicyText } from '../../core/policy/index.js';
import { recoverPolicy } from '../../core/policy/recover.js';
import type { PolicyVersion, PolicyVersionStore } from '../../core/policy/versions.js';
import { policyDiffLines } from '../../present/policy-diff.js';
import { approvedByWords } from '../../present/policy-version.js';
import { actorFor, withRuntime } from '../context.js';
import { EXIT, err, out, printJson, table, UsageError } from '../io.js';
import { outputMode } from '../output.js';
import { checkSubcommand } from './table.js';
import { answerToolResult } from './tool-answer.js';

export const POLICY_HELP = `Usage:
  bankops policy show [--version <n>] [--json]
  bankops policy history [--json]
  bankops policy diff <a> <b> [--json]
  bankops policy propose <file> [--reason "…"] [--as <name>]
  bankops policy recover <file> --reason "…" [--as <name>]

The policy's versions, kept in the database (docs/policy.md, "Versions"). Every decision's audit
entry names the version (and its hash) that decided.

  show     the version in force (or version <n>): who proposed and approved it, when, its text
  history  every version, oldest first
  diff     what changed from <a> to <b>, in words: rules added, removed and changed, roles granted
           and revoked, people added, thresholds moved, step-up turned off, governance; each of
           <a> and <b> is a version number or a policy file
  propose  under governance, the only way to change the policy: opens a policy change approval
           (what changes, in words) for the governance approvers, never you; once they approved,
           <file> is the next version in every process (docs/policy.md, "Governance")
  recover  for an owner of the database when the people who govern the policy are gone: puts
           <file> in force as a new version without votes, audited with the reason. Stop every
           bankops process first (docs/policy.md, "Recovery")

Exit status: 0 done (propose: the approval is open), 2 usage, 3 no such version, an invalid file or
not allowed.
`;

const shortHash = (hash: string): string => hash.slice(0, 12);

function describe(v: PolicyVersion): string {
  const approved = approvedByWords(v);
  return [
    `Policy version ${v.version} (sha256 ${v.hash})`,
    `  from:        ${v.source}`,
    `  proposed by: ${v.proposedBy}`,
    `  approved by: ${approved}`,
    `  at:          ${v.createdAt}`,
  ].join('\n');
}

class Missing extends Error {}

export async function policyCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      version: { type: 'string' },
      reason: { type: 'string' },
      as: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || values.help) {
    out(POLICY_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  checkSubcommand('policy', sub, POLICY_HELP);
  const wanted = values.version === undefined ? undefined : versionNumber(values.version);
  if (sub === 'diff' && positionals.length !== 2)
    throw new UsageError('policy diff needs two versions (or files): bankops policy diff 3 4', POLICY_HELP);
  if (
    sub === 'recover' &&
    (positionals.length !== 1 || values.reason === undefined || values.reason.trim() === '')
  )
    throw new UsageError('policy recover needs a file and --reason "…"', POLICY_HELP);
  if (sub === 'propose' && positionals.length !== 1)
    throw new UsageError('policy propose needs one file: bankops policy propose ./next.yaml', POLICY_HELP);
  const mode = outputMode(values.json);
  return withRuntime(async (runtime) => {
    const read = <T>(work: (versions: PolicyVersionReader) => Promise<T>): Promise<T> =>
      runtime.storage.read((stores) => work(stores.policies));
    try {
      switch (sub) {
        case 'show': {
          const v = await read((s) => (wanted === undefined ? s.latest() : s.get(wanted)));
          if (v === undefined)
            throw new Missing(wanted === undefined ? 'no version is recorded yet' : `no version ${wanted}`);
          if (mode.text) out(`${describe(v)}\n\n${v.text.endsWith('\n') ? v.text : `${v.text}\n`}`);
          else printJson(v);
          return EXIT.ok;
        }
        case 'history': {
          const list = await read((s) => s.list());
          if (!mode.text) printJson(list.map(({ text: _text, ...v }) => v));
          else
            out(
              `${table(
                ['Version', 'Hash', 'At', 'From', 'Proposed by', 'Approved by'],
                list.map((v) => [
                  String(v.version),
                  shortHash(v.hash),
                  v.createdAt,
                  v.source,
                  v.proposedBy,
                  v.approvedBy.join(', '),
                ]),
              )}\n`,
            );
          return EXIT.ok;
        }
        case 'propose': {
          const path = positionals[0] as string;
          const text = readPolicyText(path);
          // An invalid file is refused as a policy file is at start-up, and opens nothing.
          parsePolicyText(text, path);
          const actor = await actorFor(runtime, values.as);
          const input = { text, file: path, ...optional('reason', values.reason?.trim() || undefined) };
          const result = await runtime.executor.execute({ tool: PROPOSE_POLICY, input, actor });
          return answerToolResult(runtime, result, { actor, input, mode }, (output) => printJson(output));
        }
        case 'recover': {
          const path = positionals[0] as string;
          const recovered = await recoverPolicy(runtime.storage, runtime.audit, {
            text: readPolicyText(path),
            path,
            actor: await actorFor(runtime, values.as),
            reason: values.reason ?? '',
            now: new Date(),
          });
          if (mode.text) out(`${describe(recovered)}\nIn force now; start the processes again.\n`);
          else printJson(recovered);
          return EXIT.ok;
        }
        default: {
          const [a, b] = positionals as [string, string];
          const before = await policyOf(a, read);
          const after = await policyOf(b, read);
          const lines = policyDiffLines(diffPolicies(before.policy, after.policy));
          if (!mode.text) printJson({ from: before.label, to: after.label, changes: lines });
          else if (lines.length === 0) out(`No change from ${before.label} to ${after.label}.\n`);
          else out(`From ${before.label} to ${after.label}:\n${lines.map((l) => `  - ${l}`).join('\n')}\n`);
          return EXIT.ok;
        }
      }
    } catch (error) {
      if (error instanceof Missing) {
        err(`bankops: ${error.message}; bankops policy history lists the versions\n`);
        return EXIT.denied;
      }
      if (!isPolicyError(error)) throw error;
      err(`bankops: ${error.message}\n`);
      return EXIT.denied;
    }
  });
}

type PolicyVersionReader = Pick<PolicyVersionStore, 'latest' | 'get' | 'list'>;

function versionNumber(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`not a version number: ${text}`, POLICY_HELP);
  return n;
}

/** A version of the store by its number, or a policy file (a path that is not a number). */
async function policyOf(
  which: string,
  read: <T>(work: (versions: PolicyVersionReader) => Promise<T>) => Promise<T>,
): Promise<{ label: string; policy: unknown }> {
  if (/^\d+$/.test(which) && !existsSync(which)) {
    const n = versionNumber(which);
    const v = await read((s) => s.get(n));
    if (v === undefined) throw new Missing(`no version ${n}`);
    return { label: `version ${n}`, policy: parsePolicyText(v.text, `version ${n}`) };
  }
  return { label: which, policy: parsePolicyText(readPolicyText(which), which) };
}
