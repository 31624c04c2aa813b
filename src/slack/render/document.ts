import { optional } from '../../core/optional.js';
import type { Block as DocBlock, OutputDocument, TableBlock, Value } from '../../present/output/index.js';
import {
  type Block,
  context,
  escapeText,
  fieldSections,
  header,
  LIMITS,
  type SlackMessage,
  sections,
} from './message.js';

/** A value as Slack text: ids as code (easy to copy), links as links, the rest escaped. */
function valueText(value: Value): string {
  switch (value.kind) {
    case 'id':
      return `\`${value.text.replaceAll('`', "'")}\``;
    case 'link':
      return `<${escapeText(value.text)}>`;
    case 'status':
      return `*${escapeText(value.text)}*`;
    default:
      return escapeText(value.text);
  }
}

/** A table as Slack's `table` block: a header row, then the rows (right-aligned numbers). */
function tableBlock(table: TableBlock, rows: readonly Value[][]): Block {
  const cell = (text: string) => ({ type: 'raw_text' as const, text: text === '' ? ' ' : text });
  return {
    type: 'table',
    column_settings: table.columns.map((c) => ({ align: c.align, is_wrapped: c.kind === 'text' })),
    rows: [table.columns.map((c) => cell(c.label)), ...rows.map((row) => row.map((v) => cell(v.text)))],
  };
}

interface Piece {
  blocks: Block[];
  /** At most one table per message (Slack's rule); it travels in an attachment. */
  table?: Block;
}

/** The pieces of a document in reading order; a table longer than Slack's 100 rows becomes several. */
function piecesOf(block: DocBlock): Piece[] {
  switch (block.type) {
    case 'record': {
      const pairs = block.fields.map((f) => ({ label: f.label, value: valueText(f.value) }));
      const title = block.title === undefined ? [] : sections(`*${escapeText(block.title)}*`);
      return [{ blocks: [...title, ...fieldSections(pairs)] }];
    }
    case 'note':
      return [
        {
          blocks:
            block.tone === 'warning'
              ? sections(`:warning: ${escapeText(block.text)}`)
              : [context(escapeText(block.text))],
        },
      ];
    case 'table': {
      const perTable = LIMITS.tableRows - 1;
      const chunks: Value[][][] = [];
      for (let i = 0; i < block.rows.length; i += perTable) chunks.push(block.rows.slice(i, i + perTable));
      return chunks.map((rows, i) => {
        const label = block.title ?? 'Rows';
        const range =
          chunks.length === 1
            ? ''
            : ` (rows ${i * perTable + 1}–${i * perTable + rows.length} of ${block.rows.length})`;
        return { blocks: sections(`*${escapeText(label)}*${range}`), table: tableBlock(block, rows) };
      });
    }
  }
}

/**
 * A document as Slack messages: the title, then records as fields, tables as Slack's `table` block
 * (one per message, at most 100 rows), notes as context. Whatever does not fit one message (50
 * blocks, less `reserve` for buttons) goes on to the next page; nothing is cut.
 */
export function documentMessages(doc: OutputDocument, reserve = 1): SlackMessage[] {
  const room = LIMITS.messageBlocks - reserve;
  const pages: SlackMessage[] = [];
  let blocks: Block[] = [header(doc.title)];
  let table: Block | undefined;
  const flush = (): void => {
    pages.push({
      text: doc.title,
      blocks,
      ...optional('attachments', table && [{ blocks: [table] }]),
    });
    blocks = [];
    table = undefined;
  };
  for (const piece of doc.blocks.flatMap(piecesOf)) {
    const full = blocks.length + piece.blocks.length > room;
    if ((full || (piece.table !== undefined && table !== undefined)) && blocks.length > 0) flush();
    for (const block of piece.blocks) {
      if (blocks.length >= room) flush();
      blocks.push(block);
    }
    if (piece.table !== undefined) table = piece.table;
  }
  if (blocks.length > 0 || table !== undefined || pages.length === 0) flush();
  return pages.map((page, i) =>
    pages.length === 1 ? page : { ...page, text: `${doc.title} (${i + 1}/${pages.length})` },
  );
}
