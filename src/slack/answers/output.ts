import { internalError } from '../../core/errors.js';
import type { AnyTool } from '../../core/tool.js';
import type { Asker } from '../asker.js';
import { ACTIONS } from '../ids.js';
import { nextPageRef, pageRef, shareRef } from '../metadata.js';
import { actions, type Block, type Button, button, type SlackMessage } from '../render/message.js';
import { outputPages } from '../render/output.js';
import type { SlackServices } from '../services.js';

/** Whether a result holds one of the tool's secret fields (a card-details or PIN link). */
function holdsSecret(tool: AnyTool, output: Record<string, unknown>): boolean {
  const secret = new Set(tool.secretFields ?? []);
  const visit = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(visit);
    if (typeof value !== 'object' || value === null) return false;
    return Object.entries(value).some(([key, inner]) => (secret.has(key) && inner != null) || visit(inner));
  };
  return visit(output);
}

/**
 * The buttons under a page: Share (reads without secrets), More (another page, here or at the
 * service). A page with a table shows it in an attachment, below the blocks: the buttons go after it.
 */
export function withButtons(page: SlackMessage, buttons: Button[]): SlackMessage {
  if (buttons.length === 0) return page;
  const last = page.attachments?.at(-1);
  if (page.attachments !== undefined && last !== undefined) {
    const attachments = [...page.attachments.slice(0, -1), { blocks: [...last.blocks, actions(buttons)] }];
    return { ...page, attachments };
  }
  const blocks: Block[] = [...page.blocks, actions(buttons)];
  return { ...page, blocks };
}

/**
 * A tool's output as the answer: its first page, with "Share" when it is a read without a secret
 * (the pages are kept so the channel gets exactly what the person saw) and "More" when there is
 * another page, of this answer or of the service's list. A result with a secret is never kept.
 */
export async function outputAnswer(
  services: Pick<SlackServices, 'answers'>,
  asker: Asker,
  tool: AnyTool,
  input: Record<string, unknown>,
  output: Record<string, unknown>,
): Promise<SlackMessage> {
  const { pages, nextInput } = outputPages(tool, input, output);
  const [first, ...rest] = pages;
  if (first === undefined) throw internalError('a rendered output has at least one page');
  const secret = holdsSecret(tool, output);
  const shareable = tool.hints.readOnly && !secret;
  const buttons: Button[] = [];
  if (!secret && (shareable || rest.length > 0)) {
    const id = await services.answers.save({ userId: asker.userId, tool: tool.name, pages, shareable });
    if (rest.length > 0) {
      buttons.push(
        button(
          `More (${pages.length - 1} more page${pages.length === 2 ? '' : 's'})`,
          ACTIONS.morePage,
          pageRef.encode({ answerId: id, page: 1 }),
        ),
      );
    }
    if (shareable) buttons.push(button('Share in channel', ACTIONS.share, shareRef.encode({ answerId: id })));
  }
  if (nextInput !== undefined) {
    const value = nextPageRef.encode({ tool: tool.name, input: nextInput });
    // An input too long for a button is rare (a long filter); the page then says how to ask for the next.
    if (value.length <= 2000) buttons.push(button('More from the service', ACTIONS.serviceNext, value));
  }
  return withButtons(first, buttons);
}
