import type { OutputDocument } from '../present/output/index.js';
import { cliIo, out } from './io.js';
import { renderText } from './render/text.js';

/**
 * Readable output for people at a terminal, JSON for scripts: `--json`, or stdout that is not a
 * terminal, gives the JSON; `BANKOPS_OUTPUT=text|json` forces either (e.g. text into `less`).
 */

export interface OutputMode {
  /** Readable text rather than JSON. */
  text: boolean;
  /** ANSI emphasis (a terminal, NO_COLOR unset). */
  color: boolean;
  /** Columns of the terminal, for fitting tables. */
  width: number;
}

export function outputMode(json: boolean | undefined, env = cliIo().env): OutputMode {
  const tty = cliIo().stdout.isTTY === true;
  const forced = env.BANKOPS_OUTPUT?.trim().toLowerCase();
  const text = json === true ? false : forced === 'text' ? true : forced === 'json' ? false : tty;
  const color = text && tty && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  return { text, color, width: terminalWidth(env) };
}

/**
 * Columns of the terminal: its size, else `COLUMNS`, else 120. A pseudo-terminal without a size
 * says 0 columns: that means unknown, not none.
 */
export function terminalWidth(env = cliIo().env): number {
  return cliIo().stdout.columns || Number(env.COLUMNS) || 120;
}

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => [...line].length));

/**
 * Prints a document as text, with as many table columns as fit the terminal (from 8 down to 3; the
 * ones left out are named in a note), then free text shortened where a row is still too wide.
 * `build` derives the document for a column limit.
 */
export function printDocument(build: (maxColumns: number) => OutputDocument, mode: OutputMode): void {
  let text = '';
  for (let columns = 8; columns >= 3; columns -= 1) {
    const doc = build(columns);
    const tables = renderText(
      { title: '', blocks: doc.blocks.filter((b) => b.type === 'table') },
      { color: false, width: mode.width },
    );
    const fits = widest(tables) <= mode.width;
    if (fits || columns === 3) {
      text = renderText(doc, { color: mode.color, width: mode.width });
      break;
    }
  }
  out(text);
}
