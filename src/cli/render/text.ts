import type { Block, OutputDocument, RecordBlock, TableBlock, Value } from '../../present/output/model.js';

/**
 * The terminal's rendering of an output document: aligned key/value lines for records, padded
 * columns for tables, notes as sentences. Ids, amounts, masked numbers and links are never cut
 * (they are copied from here); long free text in a table cell is, with an ellipsis.
 */

export interface TextStyle {
  /** Bold titles and dim notes with ANSI escapes (a terminal that shows colour, NO_COLOR unset). */
  color: boolean;
  /** Columns available: free-text table cells are shortened (never below 20) so rows fit. */
  width?: number;
}

const TEXT_MIN = 20;

const bold = (text: string, style: TextStyle): string => (style.color ? `\u001b[1m${text}\u001b[22m` : text);
const dim = (text: string, style: TextStyle): string => (style.color ? `\u001b[2m${text}\u001b[22m` : text);

const width = (text: string): number => [...text].length;
const padEnd = (text: string, to: number): string => text + ' '.repeat(Math.max(0, to - width(text)));
const padStart = (text: string, to: number): string => ' '.repeat(Math.max(0, to - width(text))) + text;

/**
 * A line broken at spaces so none is wider than `max` (a word longer than that stays whole: ids and
 * links are copied from here); the lines after the first start with `indent`.
 */
export function wrapLine(line: string, max: number, indent = ''): string[] {
  if (width(line) <= max) return [line];
  const lead = /^\s*/.exec(line)?.[0] ?? '';
  const out: string[] = [];
  let current = '';
  for (const word of line.slice(lead.length).split(' ')) {
    const prefix = out.length === 0 ? lead : indent;
    if (current !== '' && width(prefix) + width(current) + 1 + width(word) > max) {
      out.push(`${prefix}${current}`);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  out.push(`${out.length === 0 ? lead : indent}${current}`);
  return out;
}

const wrapped = (text: string, style: TextStyle, indent = ''): string[] =>
  text.split('\n').flatMap((line) => wrapLine(line, style.width ?? Number.POSITIVE_INFINITY, indent));

/** A cell of free text cut to `max` with an ellipsis (the full result keeps it); other kinds never. */
function cell(value: Value, max: number): string {
  if (value.kind !== 'text' || width(value.text) <= max) return value.text;
  return `${[...value.text].slice(0, max - 1).join('')}…`;
}

/** Column widths that fit `limit`: the widest free-text columns give way first, down to TEXT_MIN. */
function fitted(widths: number[], text: readonly boolean[], limit: number): number[] {
  const out = [...widths];
  const total = (): number => out.reduce((sum, w) => sum + w, 0) + 2 * (out.length - 1);
  while (total() > limit) {
    let widest = -1;
    for (const [i, w] of out.entries())
      if (text[i] && w > TEXT_MIN && (widest < 0 || w > (out[widest] ?? 0))) widest = i;
    if (widest < 0) break;
    out[widest] = Math.max(TEXT_MIN, (out[widest] ?? 0) - Math.max(1, total() - limit));
  }
  return out;
}

function record(block: RecordBlock, style: TextStyle): string[] {
  const labelWidth = Math.max(...block.fields.map((f) => width(f.label)));
  const inset = block.title === undefined ? '' : '  ';
  const hanging = ' '.repeat(inset.length + labelWidth + 2);
  const lines = block.fields.flatMap((f) =>
    wrapped(`${inset}${padEnd(f.label, labelWidth)}  ${f.value.text}`.trimEnd(), style, hanging),
  );
  return block.title === undefined ? lines : [bold(block.title, style), ...lines];
}

function table(block: TableBlock, style: TextStyle): string[] {
  const headers = block.columns.map((c) => c.label.toUpperCase());
  const natural = headers.map((h, i) =>
    Math.max(width(h), ...block.rows.map((row) => width(row[i]?.text ?? ''))),
  );
  const text = block.columns.map((_, i) => block.rows.some((row) => row[i]?.kind === 'text'));
  const limits = fitted(natural, text, style.width ?? Number.POSITIVE_INFINITY);
  const cells = block.rows.map((row) =>
    row.map((value, i) => cell(value, limits[i] ?? Number.POSITIVE_INFINITY)),
  );
  const widths = headers.map((h, i) => Math.max(width(h), ...cells.map((row) => width(row[i] ?? ''))));
  const line = (row: readonly string[]): string =>
    row
      .map((text, i) =>
        block.columns[i]?.align === 'right' ? padStart(text, widths[i] ?? 0) : padEnd(text, widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  const out = [bold(line(headers), style), ...cells.map(line)];
  return block.title === undefined ? out : [bold(block.title, style), ...out];
}

function blockLines(block: Block, style: TextStyle): string[] {
  switch (block.type) {
    case 'record':
      return record(block, style);
    case 'table':
      return table(block, style);
    case 'note':
      return block.tone === 'warning'
        ? wrapped(`! ${block.text}`, style, '  ')
        : wrapped(block.text, style, block.text.startsWith('• ') ? '  ' : '').map((line) => dim(line, style));
  }
}

/** The document as lines of text, blocks separated by a blank line, ending with a newline. */
export function renderText(doc: OutputDocument, style: TextStyle = { color: false }): string {
  const parts = [
    wrapped(doc.title, style).map((l) => bold(l, style)),
    ...doc.blocks.map((b) => blockLines(b, style)),
  ];
  return `${parts.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}
