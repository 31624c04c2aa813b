import type { AnyTool } from '../tool.js';
import type { PolicyTool } from './types.js';

/** The part of a tool the policy reads: its name, toolset, hints and the money it would move. */
export function policyView(tool: AnyTool): PolicyTool {
  const money = tool.money?.bind(tool);
  return {
    name: tool.name,
    toolset: tool.toolset,
    hints: tool.hints,
    ...(money === undefined ? {} : { money: (input: unknown) => money(input as Record<string, unknown>) }),
  };
}
