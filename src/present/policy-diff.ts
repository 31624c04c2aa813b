import type { PolicyDiffChange } from '../core/policy/diff.js';

/**
 * A policy change in plain words, one line per change, the same in Slack, on the approval page and
 * in the CLI (`bankops policy diff`, `bankops policy propose`). The words that matter to an approver
 * come first in each line: who gains or loses a role, a rule that needs fewer approvers, step-up
 * turned off, governance itself. Any other field (one added to the schema later included) is said
 * by its path.
 */
export function policyDiffLines(changes: readonly PolicyDiffChange[]): string[] {
  return changes.map(lineOf);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value in a few words: text as is, lists joined, objects as compact JSON. */
function words(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.length === 0 ? 'nobody' : value.map(words).join(', ');
  if (value === undefined) return '(none)';
  return JSON.stringify(value);
}

const ruleLabel = (key: string): string => (key.startsWith('[') ? `rule ${key}` : `rule "${key}"`);
const actorLabel = (key: string): string => key.replace('=', ' ');

/** What a rule does, in one phrase. */
function ruleWords(rule: unknown): string {
  if (!isRecord(rule)) return words(rule);
  const allow = `allows ${words(rule.allow)}`;
  const approval = isRecord(rule.approval) ? `; ${approvalWords(rule.approval)}` : '';
  return `${allow}${approval}`;
}

function approvalWords(approval: Record<string, unknown>): string {
  const stepUp = approval.stepUp === undefined ? '' : ', each confirming with a passkey';
  return `approval by ${words(approval.approvers)} ${words(approval.role)}${stepUp}`;
}

function fewerOrMore(before: unknown, after: unknown): string {
  if (typeof before !== 'number' || typeof after !== 'number') return '';
  return after < before ? ' (FEWER people must approve)' : ' (more people must approve)';
}

function ruleLine(change: PolicyDiffChange, key: string, rest: readonly string[]): string {
  const rule = ruleLabel(key);
  const field = rest.join('.');
  if (rest.length === 0) {
    if (change.kind === 'added') return `${rule} added: ${ruleWords(change.after)}`;
    if (change.kind === 'removed') return `${rule} REMOVED (was: ${ruleWords(change.before)})`;
  }
  if (field === 'approval') {
    if (change.kind === 'removed') return `${rule}: approval TURNED OFF, its calls run without approvers`;
    if (change.kind === 'added' && isRecord(change.after))
      return `${rule}: now needs ${approvalWords(change.after)}`;
  }
  if (field === 'approval.approvers' && change.kind === 'changed')
    return `${rule}: approvers ${words(change.before)} → ${words(change.after)}${fewerOrMore(change.before, change.after)}`;
  if (field === 'approval.stepUp') {
    if (change.kind === 'removed')
      return `${rule}: step-up TURNED OFF (votes no longer confirmed with a passkey)`;
    if (change.kind === 'added') return `${rule}: step-up turned on (each vote confirmed with a passkey)`;
  }
  if (field === 'approval.role' && change.kind === 'changed')
    return `${rule}: approvers now hold ${words(change.after)} instead of ${words(change.before)}`;
  if (field === 'allow' && change.kind === 'members')
    return `${rule}: ${membersWords(change, 'may now be called by', 'no longer by')}`;
  if (rest[0] === 'when' && change.kind === 'changed' && typeof change.before === 'number')
    return `${rule}: threshold ${field} moved ${words(change.before)} → ${words(change.after)}`;
  return `${rule}: ${generic(change, field)}`;
}

function membersWords(
  change: Extract<PolicyDiffChange, { kind: 'members' }>,
  gained: string,
  lost: string,
): string {
  const parts: string[] = [];
  if (change.added.length > 0) parts.push(`${gained} ${words(change.added)}`);
  if (change.removed.length > 0) parts.push(`${lost} ${words(change.removed)}`);
  return parts.join('; ');
}

function actorLine(change: PolicyDiffChange, key: string, rest: readonly string[]): string {
  const actor = actorLabel(key);
  if (rest.length === 0 && change.kind === 'added' && isRecord(change.after)) {
    const person = change.after.person === undefined ? '' : ` (person ${words(change.after.person)})`;
    return `person added: ${actor}${person} gets ${words(change.after.roles)}`;
  }
  if (rest.length === 0 && change.kind === 'removed' && isRecord(change.before))
    return `${actor} removed: loses ${words(change.before.roles)}`;
  if (rest.join('.') === 'roles' && change.kind === 'members')
    return `${actor}: ${membersWords(change, 'granted', 'revoked')}`;
  return `${actor}: ${generic(change, rest.join('.'))}`;
}

function governanceLine(change: PolicyDiffChange, rest: readonly string[]): string {
  if (rest.length === 0 && change.kind === 'added') return `governance TURNED ON: ${words(change.after)}`;
  if (rest.length === 0 && change.kind === 'removed')
    return 'governance TURNED OFF: policy changes no longer need approval';
  return `governance: ${generic(change, rest.join('.'))}`;
}

function generic(change: PolicyDiffChange, field: string): string {
  const at = field === '' ? '' : `${field} `;
  switch (change.kind) {
    case 'added':
      return `${at}added: ${words(change.after)}`;
    case 'removed':
      return `${at}removed (was ${words(change.before)})`;
    case 'changed':
      return `${at}${words(change.before)} → ${words(change.after)}`;
    case 'members':
      return `${at}${membersWords(change, 'added', 'removed')}`;
  }
}

function lineOf(change: PolicyDiffChange): string {
  const [section, key, ...rest] = change.path;
  if (section === 'rules' && key !== undefined) return ruleLine(change, key, rest);
  if (section === 'actors' && key !== undefined) return actorLine(change, key, rest);
  if (section === 'mcpKeys' && key !== undefined)
    return `MCP key ${key}: ${rest.length === 0 ? generic(change, '').replace(/: .*$/, '') : generic(change, rest.join('.'))}`;
  if (section === 'governance') return governanceLine(change, key === undefined ? [] : [key, ...rest]);
  if (section === 'roles' && change.kind === 'members')
    return `roles: ${membersWords(change, 'added', 'removed')}`;
  return generic(change, change.path.join('.'));
}
