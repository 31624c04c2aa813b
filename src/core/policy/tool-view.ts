import { optional } from '../optional.js';
import type { AnyTool } from '../tool.js';
import type { PolicyTool } from './types.js';

const views = new WeakMap<AnyTool, PolicyTool>();

/**
 * The part of a tool the policy reads: its name, toolset, hints and the money it would move. A
 * tool's definition never changes, so its view is made once (the executor asks on every call).
 */
export function policyView(tool: AnyTool): PolicyTool {
  let view = views.get(tool);
  if (view === undefined) {
    const money = tool.money?.bind(tool);
    const payee = tool.payee?.bind(tool);
    const sourceAccount = tool.sourceAccount?.bind(tool);
    view = {
      name: tool.name,
      toolset: tool.toolset,
      hints: tool.hints,
      ...optional('money', money && ((input: unknown) => money(input as Record<string, unknown>))),
      ...optional('payee', payee && ((input: unknown) => payee(input as Record<string, unknown>))),
      ...optional(
        'sourceAccount',
        sourceAccount && ((input: unknown) => sourceAccount(input as Record<string, unknown>)),
      ),
    };
    views.set(tool, view);
  }
  return view;
}
