import type { Policy } from './schema.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * Why passkeys cannot be used behind this public URL, or undefined when they can: a browser offers
 * WebAuthn only in a secure context, so https, or http on this machine for trying it (`localhost`;
 * `127.0.0.1` is allowed too, though browsers refuse an IP address as relying party id).
 */
export function passkeyUrlProblem(publicUrl: string | undefined): string | undefined {
  if (publicUrl === undefined) {
    return 'BANKOPS_PUBLIC_URL is not set (the https address people reach bankops serve at; http://localhost:<port> to try it on this machine)';
  }
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return `BANKOPS_PUBLIC_URL ${publicUrl} is not a URL`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)) return undefined;
  return `BANKOPS_PUBLIC_URL ${url.origin} is not https (only localhost and 127.0.0.1 may use http)`;
}

/**
 * One line per rule (and for `breakGlass`, and a payee cooling-off of `action: stepUp`) that asks
 * for passkey step-up when this deployment cannot offer it: the policy is refused at load, so
 * nothing waits for a confirmation nobody can give.
 */
export function stepUpProblems(
  policy: Pick<Policy, 'rules' | 'breakGlass' | 'payees'>,
  publicUrl: string | undefined,
): string[] {
  const problem = passkeyUrlProblem(publicUrl);
  if (problem === undefined) return [];
  const rules = policy.rules.flatMap((rule, i) =>
    rule.approval?.stepUp === undefined
      ? []
      : [
          `rules[${i}].approval.stepUp: passkey confirmation needs an https BANKOPS_PUBLIC_URL (the approval page is served there); ${problem}`,
        ],
  );
  const breakGlass =
    policy.breakGlass?.stepUp === undefined
      ? []
      : [
          `breakGlass.stepUp: passkey confirmation needs an https BANKOPS_PUBLIC_URL (the break-glass page is served there); ${problem}`,
        ];
  const coolingOff =
    policy.payees?.coolingOff?.action === 'stepUp'
      ? [
          `payees.coolingOff.action: stepUp: passkey confirmation needs an https BANKOPS_PUBLIC_URL (the approval page is served there); ${problem}; or choose refuse or extraApprover`,
        ]
      : [];
  return [...rules, ...breakGlass, ...coolingOff];
}
