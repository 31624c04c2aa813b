import { optional } from '../../core/optional.js';
import type { AnyTool } from '../../core/tool.js';
import { numeric } from '../../present/output/format.js';
import { pageInput, toolOutputDocument } from '../../present/output/index.js';
import { documentMessages } from './document.js';
import type { SlackMessage } from './message.js';

/**
 * The input of the service's next page, when this page says there is one (`has_more`, a page
 * below `total_pages`, fewer items seen than `total`).
 */
function nextPageInput(
  tool: AnyTool,
  input: Record<string, unknown>,
  output: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const paging = pageInput(tool, input);
  if (paging === undefined) return undefined;
  const page = numeric(output.page ?? output.pageNumber ?? output.page_num) ?? paging.page;
  const pages = numeric(output.total_pages);
  const total = numeric(output.total ?? output.total_count ?? output.totalcount);
  const size = numeric(output.pageSize ?? output.page_size ?? output.size) ?? paging.size;
  const more =
    output.has_more === true ||
    (pages !== undefined && page < pages) ||
    (pages === undefined && total !== undefined && size !== undefined && page * size < total);
  return more ? { ...input, [paging.field]: page + 1 } : undefined;
}

/** A tool's output as Slack pages (from the front-end-neutral document), and the service's next page. */
export function outputPages(
  tool: AnyTool,
  input: Record<string, unknown>,
  output: Record<string, unknown>,
): { pages: SlackMessage[]; nextInput?: Record<string, unknown> } {
  const pages = documentMessages(toolOutputDocument(tool, output, { input }));
  const nextInput = nextPageInput(tool, input, output);
  return { pages, ...optional('nextInput', nextInput) };
}
