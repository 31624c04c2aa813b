import { z } from 'zod';
import { notConfigured } from '../../core/errors.js';
import { InputError } from '../../core/input-error.js';
import { PROPOSE_POLICY } from '../../core/policy/change-rule.js';
import type { PolicyChanges } from '../../core/policy/changes.js';
import { isPolicyError } from '../../core/policy/index.js';
import { defineTool, type ToolContext } from '../../core/tool.js';

function changesOf(ctx: ToolContext): PolicyChanges {
  if (ctx.policyChanges === undefined) throw notConfigured('policy changes are not kept in this process');
  return ctx.policyChanges;
}

/**
 * A change of a governed policy (docs/policy.md "Governance"): the governance section, not the
 * rules, says who proposes and who approves (src/core/policy/change-rule.ts). The approvers read
 * what changes in words; once they approved, the text becomes the next version, only if the version
 * it was proposed against is still in force.
 */
export const proposePolicy = defineTool({
  name: PROPOSE_POLICY,
  title: 'Propose a policy change',
  description:
    'Proposes a new policy (the whole YAML or JSON text) under governance: it waits for the governance approvers (never the proposer), who see every change in words, then becomes the next version in every process. Refused if invalid or if governance is off. `bankops policy propose <file>` calls it.',
  toolset: 'admin',
  input: z.object({
    text: z.string().min(1).max(200_000).describe('The whole proposed policy, YAML or JSON.'),
    file: z.string().trim().min(1).max(500).optional().describe('Where it was read from, for messages.'),
    reason: z.string().trim().min(1).max(500).optional().describe('Why, for the approvers and the audit.'),
  }),
  output: z.object({
    version: z.number().describe('The version now in force.'),
    hash: z.string().describe('SHA-256 of its parsed form.'),
  }),
  // Changes bankops's own policy, not the service; undone only by another approved change.
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },

  async preview(input, ctx) {
    try {
      const facts = await changesOf(ctx).preview(input.text, input.file ?? 'the proposed policy');
      return {
        summary: `Change the policy from version ${facts.from.version} (${facts.changes.length} changes)`,
        facts,
        details: {},
      };
    } catch (error) {
      // Refused before anything opens, with the policy's own one-line-per-problem message.
      if (isPolicyError(error)) throw new InputError('text', error.message);
      throw error;
    }
  },

  async run(input, ctx) {
    const facts = ctx.approved?.facts;
    if (ctx.approvalId === undefined || facts?.kind !== 'policy_change')
      throw new InputError('text', 'a policy change runs only once approved (bankops policy propose)');
    const version = await changesOf(ctx).apply({
      approvalId: ctx.approvalId,
      text: input.text,
      against: facts.from.version,
      proposedBy: ctx.by?.person ?? ctx.actorName,
    });
    return { version: version.version, hash: version.hash };
  },
});
