import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
} from '@modelcontextprotocol/server';
import type { Executor } from '../core/executor.js';
import type { Actor } from '../core/policy/types.js';
import { policyView } from '../present/policy-view.js';
import type { ToolCatalog, ToolListing } from './listing.js';

const POLICY_URI = 'bankops://policy';
const EVENTS_URI = 'bankops://events';

/** The tool whose result `bankops://events` is; the resource is offered when the tool is. */
const EVENTS_TOOL = 'list_webhook_events';

export interface ResourceContext {
  /** The tools this server offers (after the toolset and read-only filters). */
  tools: readonly ToolListing[];
  catalog: ToolCatalog;
  getExecutor: () => Promise<Executor>;
  actor: Actor;
}

const json = (uri: URL, value: unknown): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

export function registerResources(server: McpServer, context: ResourceContext): void {
  const { tools, catalog, getExecutor, actor } = context;

  server.registerResource(
    'policy',
    POLICY_URI,
    {
      title: 'What this assistant may do',
      description:
        'From the live bankops policy: your roles, and per tool whether a call runs at once, waits for approvers (how many, which role) or is refused.',
      mimeType: 'application/json',
    },
    async (uri) => {
      const { policy } = await getExecutor();
      const offered = await Promise.all(tools.map((tool) => catalog.tool(tool.name)));
      return json(uri, policyView(policy, actor, offered));
    },
  );

  if (!tools.some((tool) => tool.name === EVENTS_TOOL)) return;
  server.registerResource(
    'events',
    EVENTS_URI,
    {
      title: 'Subscribable events',
      description:
        'The events a program can subscribe to (event_name and description), for create_subscription. From the service, as list_webhook_events returns them.',
      mimeType: 'application/json',
    },
    async (uri) => {
      // Through the executor like any call: the policy applies and the read is audited.
      const result = await (await getExecutor()).execute({ tool: EVENTS_TOOL, input: {}, actor });
      if (result.status === 'ok') return json(uri, result.output);
      const why =
        result.status === 'failed'
          ? result.error.message
          : result.status === 'denied' || result.status === 'declined'
            ? result.reason
            : result.status === 'invalid'
              ? result.message
              : 'it needs approval';
      throw new ProtocolError(ProtocolErrorCode.InternalError, `could not read the event catalog: ${why}`);
    },
  );
}
