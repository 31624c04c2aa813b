import { z } from 'zod';
import { internalError } from './errors.js';
import type { AnyTool } from './tool.js';
import type { Toolset } from './toolset.js';

const TOOL_NAME = /^[a-z0-9_]{1,64}$/;

export interface RegistryFilter {
  /** Only these toolsets (all when absent). */
  toolsets?: readonly Toolset[];
  /** Only tools that change nothing. */
  readOnly?: boolean;
  /** Leave out tools whose input is a secret a person holds (PIN, code, card number). */
  noSecretInput?: boolean;
}

/** The list of tools every front end derives its surface from. Names are checked once, here. */
export class Registry {
  private readonly byName = new Map<string, AnyTool>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (!TOOL_NAME.test(tool.name)) throw internalError(`tool name '${tool.name}' must match ${TOOL_NAME}`);
      if (this.byName.has(tool.name)) throw internalError(`tool name '${tool.name}' is defined twice`);
      this.byName.set(tool.name, tool);
    }
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  list(filter: RegistryFilter = {}): AnyTool[] {
    return [...this.byName.values()].filter(
      (tool) =>
        (filter.toolsets === undefined || filter.toolsets.includes(tool.toolset)) &&
        (!filter.readOnly || tool.hints.readOnly) &&
        (!filter.noSecretInput || tool.secretInput !== true),
    );
  }

  get size(): number {
    return this.byName.size;
  }
}

/** The JSON Schema of a tool's input (draft 2020-12), for `bankops tools --json`, MCP and snapshots. */
export const inputJsonSchema = (tool: AnyTool): Record<string, unknown> =>
  z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

export const outputJsonSchema = (tool: AnyTool): Record<string, unknown> =>
  z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
