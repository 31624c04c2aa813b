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
    'Proposes a whole new policy (YAML or JSON) under governance; governance approvers other than you vote on its changes, shown in words. Once approved it is the next version everywhere.',
  toolset: 'admin',
  input: z.object({
    text: z.string().min(1).max(200_000).describe('The policy text.'),
    file: z.string().trim().min(1).max(500).optional().describe('Its file name.'),
    reason: z.string().trim().min(1).max(500).optional().describe('Why, for approvers.'),
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
