import { z } from 'zod';
import { type ApprovalView, ApprovalViewSchema } from '../../core/approvals/types.js';
import type { Actor } from '../../core/policy/types.js';
import { approvalsOf } from '../../present/approval-decide.js';
import { approvalLines, statusLine } from '../../present/approval-words.js';
import { decisionRef } from '../metadata.js';
import { actions, type Block, button, context, escapeText, header, sections } from '../render/message.js';
import type { SlackServices } from '../services.js';
import { APPROVAL_ACTIONS } from './ids.js';
import { decisionButtons } from './messages/approval.js';
import { askedBy, slackWording } from './messages/wording.js';

/**
 * The App Home's approvals: the pending ones this person may decide, with Approve and Reject, and
 * their own, with Cancel. Read through the executor (`list_approvals`), so the policy decides who
 * may see them and the read is audited like `/bank approvals`.
 */

/** The App Home reads approvals through the executor and titles from the registry. */
type HomeSource = Pick<SlackServices, 'executor' | 'registry'>;

const ListSchema = z.object({ approvals: z.array(ApprovalViewSchema) });

/** Blocks one approval takes on the home tab (summary, buttons). */
const PER_APPROVAL = 2;

function summary(services: HomeSource, view: ApprovalView): Block[] {
  const w = slackWording(services.executor.policy);
  const what = approvalLines(view).map(escapeText).join('\n');
  return sections(
    `*${escapeText(services.registry.get(view.tool)?.title ?? view.tool)}* · \`${view.id}\`\n${what}\n_${statusLine(view, w)}_ · asked by ${askedBy(services.executor.policy, view)}`,
  );
}

function section(
  services: HomeSource,
  title: string,
  views: readonly ApprovalView[],
  budget: number,
  buttons: (view: ApprovalView) => Block,
): Block[] {
  const shown = views.slice(0, Math.max(0, Math.floor((budget - 2) / (PER_APPROVAL + 1))));
  const blocks: Block[] = [
    ...sections(`*${title}* (${views.length})${views.length === 0 ? '\n_nothing_' : ''}`),
  ];
  for (const view of shown) blocks.push(...summary(services, view), buttons(view), { type: 'divider' });
  if (shown.length < views.length) {
    blocks.push(context(`${views.length - shown.length} more: \`/bank approvals\` lists them all.`));
  }
  return blocks;
}

/**
 * The approvals part of this person's home tab, in at most `budget` blocks; nothing for someone
 * the policy does not let list approvals.
 */
export async function homeBlocks(services: HomeSource, actor: Actor, budget: number): Promise<Block[]> {
  const result = await services.executor.execute({
    tool: 'list_approvals',
    input: { state: 'pending', limit: 100 },
    actor,
  });
  if (result.status !== 'ok') return [];
  const pending = ListSchema.parse(result.output).approvals;
  const { forMe, mine } = approvalsOf(services.executor.policy, actor, pending);
  const half = Math.floor((budget - 1) / 2);
  const cancel = (view: ApprovalView): Block => {
    const ref = decisionRef.encode({ approvalId: view.id, attempt: view.attempt });
    return actions([button('Cancel request', APPROVAL_ACTIONS.cancel, ref)], `home:${view.id}`);
  };
  return [
    header('Approvals'),
    ...section(services, 'Waiting for you', forMe, half, (view) => ({
      type: 'actions',
      block_id: `home:${view.id}`,
      elements: decisionButtons(view, services.registry),
    })),
    ...section(services, 'Yours, waiting for others', mine, half, cancel),
  ];
}
