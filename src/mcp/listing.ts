import { readFileSync } from 'node:fs';
import { internalError } from '../core/errors.js';
import { Registry } from '../core/registry.js';
import type { AnyTool, ToolHints } from '../core/tool.js';
import type { Toolset } from '../core/toolset.js';
import { mcpDescription } from './said-once.js';
import { type AdvertisedSchemas, mcpSchemas } from './schemas.js';

/**
 * What tools/list may cost an assistant's context, in bytes of compact JSON (issue 10): `model`,
 * what a model reads of every tool (name, description, input schema); `whole`, the list with
 * titles, output schemas and annotations. test/mcp/size.test.ts holds the default server to them;
 * `npm run bench` prints both beside the sizes. Raised from 40,000 and 100,000 by what the three
 * balance alert tools need (about 0.9 KB and 3.8 KB), when they became tools; then by the payee
 * directory's two tools (about 1.3 KB) and the payee history every money approval carries in its
 * output schema (about 6.4 KB); then by `propose_policy` (about 0.7 KB read by the model) and the
 * policy change an approval may carry in the two approval tools' output schemas (about 2.3 KB).
 */
export const CONTEXT_BUDGET = { model: 43_000, whole: 114_500 } as const;

/**
 * What the MCP server says of a tool and needs to route a call to it, without the tool itself (its
 * zod schemas): plain JSON, so the build can write every tool's listing once (`LISTINGS_FILE`).
 */
export interface ToolListing extends AdvertisedSchemas {
  name: string;
  title: string;
  /** As tools/list gives it (said-once.ts). */
  description: string;
  toolset: Toolset;
  hints: ToolHints;
  /** The input carries a secret a person holds: offered only with `--secret-inputs`. */
  secretInput: boolean;
  /** Quotes or stores before answering (writes, and reads with a preview): worth progress messages. */
  slow: boolean;
}

export function listingOf(tool: AnyTool): ToolListing {
  return {
    name: tool.name,
    title: tool.title,
    description: mcpDescription(tool.description),
    toolset: tool.toolset,
    hints: tool.hints,
    secretInput: tool.secretInput === true,
    slow: !tool.hints.readOnly || tool.preview !== undefined,
    ...mcpSchemas(tool),
  };
}

/**
 * Where a server's tools come from: the listing of every tool, and each tool itself for a call.
 * A registry has both at hand; the stdio bundle lists from the build's file and loads the tools
 * with the runtime, at the first call (their zod schemas cost a quarter of a start).
 */
export interface ToolCatalog {
  readonly listings: readonly ToolListing[];
  tool(name: string): Promise<AnyTool>;
}

const ofRegistry = new WeakMap<Registry, ToolCatalog>();

/** The catalog of a registry (listed once per registry), or the catalog given. */
export function catalogOf(source: Registry | ToolCatalog): ToolCatalog {
  if (!(source instanceof Registry)) return source;
  let catalog = ofRegistry.get(source);
  if (catalog === undefined) {
    const registry = source;
    catalog = {
      listings: registry.list().map(listingOf),
      tool: async (name) => {
        const tool = registry.get(name);
        if (tool === undefined) throw internalError(`no tool ${name} in the registry`);
        return tool;
      },
    };
    ofRegistry.set(source, catalog);
  }
  return catalog;
}

/**
 * Tools an assistant needs to follow a `pending_approval` to its end: offered whatever the toolsets,
 * since a write without them leaves the assistant with an approval id and nothing to do with it.
 */
export const ALWAYS_OFFERED: readonly string[] = ['get_approval', 'list_approvals'];

export interface OfferOptions {
  toolsets?: readonly Toolset[];
  readOnly?: boolean;
  secretInputs?: boolean;
}

/** The tools a server offers, in the registry's order: the same on every connection. */
export function offeredTools(source: Registry | ToolCatalog, options: OfferOptions): ToolListing[] {
  const { toolsets } = options;
  return catalogOf(source).listings.filter(
    (tool) =>
      (options.readOnly !== true || tool.hints.readOnly) &&
      (options.secretInputs === true || !tool.secretInput) &&
      (toolsets === undefined || toolsets.includes(tool.toolset) || ALWAYS_OFFERED.includes(tool.name)),
  );
}

/** The file `npm run build` writes beside the stdio bundle: every tool's listing, in order. */
export const LISTINGS_FILE = 'tool-listings.json';

/**
 * The build's listings, when this code runs from the bundle (the bundle's folder or its chunks/
 * folder); `undefined` elsewhere (tsc output, tests), where the registry is at hand.
 */
export function prebuiltListings(): ToolListing[] | undefined {
  for (const relative of [`./${LISTINGS_FILE}`, `../${LISTINGS_FILE}`]) {
    try {
      return JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as ToolListing[];
    } catch {
      // not there: try the next place
    }
  }
  return undefined;
}
