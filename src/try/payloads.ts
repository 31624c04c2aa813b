import { optional } from '../core/optional.js';
import { isObj, type Message, type Obj, objects } from './conversations.js';
import { BOT, TEAM } from './people.js';
import type { OpenView } from './views.js';

/**
 * The parts of Slack's interaction payloads the workspace fills from its memory: the element a
 * click names (by its path in the message or view), the action Slack reports for it, a view as
 * Slack hands it back, and the state of a modal's inputs.
 */

export interface Found {
  block: Obj;
  element: Obj;
}

/** `b3.e1` (an actions block's element), `b1.x` (a section's accessory), `a0.b2.e0` (in an attachment). */
export function elementAt(
  blocks: readonly Obj[],
  attachments: readonly Obj[],
  path: string,
): Found | undefined {
  const match = /^(?:a(\d+)\.)?b(\d+)\.(?:e(\d+)|x)$/.exec(path);
  if (match === null) return undefined;
  const [, a, b, e] = match;
  const list = a === undefined ? blocks : objects(attachments[Number(a)]?.blocks);
  const block = list[Number(b)];
  if (block === undefined) return undefined;
  const element = e === undefined ? block.accessory : objects(block.elements)[Number(e)];
  return isObj(element) ? { block, element } : undefined;
}

/** The action Slack reports for a click (or a choice, for a select). */
export function actionOf(found: Found, option: string | undefined): Obj | undefined {
  const { block, element } = found;
  const common = {
    action_id: element.action_id,
    block_id: block.block_id,
    action_ts: (Date.now() / 1000).toFixed(6),
  };
  if (element.type === 'button') {
    return {
      type: 'button',
      ...common,
      text: element.text,
      ...optional('value', element.value),
      ...optional('style', element.style),
    };
  }
  if (element.type === 'static_select') {
    const chosen = objects(element.options).find((o) => o.value === option);
    if (chosen === undefined) return undefined;
    return { type: 'static_select', ...common, selected_option: chosen, placeholder: element.placeholder };
  }
  return undefined;
}

/** A message as a click's payload carries it (`message`), for messages everyone sees. */
export const messagePayload = (message: Message): Obj => ({
  type: 'message',
  subtype: message.user === BOT.userId ? 'bot_message' : undefined,
  user: message.user,
  ...(message.user === BOT.userId ? { bot_id: BOT.botId, app_id: BOT.appId } : {}),
  ts: message.ts,
  text: message.text,
  blocks: message.blocks,
  attachments: message.attachments,
  ...optional('thread_ts', message.threadTs),
});

type StateValue = Record<string, unknown>;

/** One input's state as Slack reports it: `value` (null when empty) or `selected_option`. */
function stateOf(element: Obj, typed: string | undefined): StateValue {
  const given = typed === undefined || typed === '' ? null : typed;
  if (element.type === 'static_select') {
    const chosen = objects(element.options).find((o) => o.value === given);
    return { type: 'static_select', selected_option: chosen ?? null };
  }
  return { type: element.type, value: given };
}

/** `view.state.values`: by block id, then action id, every input of the view. */
export function stateValues(open: OpenView): Record<string, Record<string, StateValue>> {
  const values: Record<string, Record<string, StateValue>> = {};
  for (const block of objects(open.view.blocks)) {
    if (block.type !== 'input' || !isObj(block.element) || typeof block.block_id !== 'string') continue;
    const actionId = typeof block.element.action_id === 'string' ? block.element.action_id : 'input';
    values[block.block_id] = { [actionId]: stateOf(block.element, open.typed[block.block_id]) };
  }
  return values;
}

/** A view as Slack hands it back in a payload: what the app sent, with Slack's fields and the state. */
export const viewPayload = (open: OpenView): Obj => ({
  ...open.view,
  id: open.id,
  team_id: TEAM.id,
  state: { values: stateValues(open) },
  hash: `${open.id}.h`,
  root_view_id: open.id,
  previous_view_id: null,
  app_id: BOT.appId,
  bot_id: BOT.botId,
});
