import { randomBytes } from 'node:crypto';
import type { SlackMessage } from '../render/message.js';

/** As long as a slash command's response_url lives: the buttons of an older answer have nothing to act on. */
const KEEP_MS = 30 * 60_000;

export interface StoredAnswer {
  id: string;
  /** Who asked: only they see the ephemeral answer, so only they can press its buttons. */
  userId: string;
  tool: string;
  /** The answer's pages; the first was shown with the answer, "More" shows the next. */
  pages: SlackMessage[];
  /** A read whose result holds no secret: "Share" may post it to the channel. */
  shareable: boolean;
}

/**
 * A stored `slack_pages` row, `shareable` as a boolean (SQLite's 0 or 1 turned into one) and
 * `pages_json` as the backend keeps JSON.
 */
export interface AnswerRow {
  id: string;
  user_id: string;
  tool: string;
  pages_json: unknown;
  shareable: boolean;
  created_at: number;
}

/** The answer a stored row holds, its pages read by the backend's JSON codec. */
export const answerOf = (
  row: AnswerRow,
  readJson: (stored: unknown) => unknown,
): StoredAnswer & { createdAt: number } => ({
  id: row.id,
  userId: row.user_id,
  tool: row.tool,
  pages: readJson(row.pages_json) as SlackMessage[],
  shareable: row.shareable,
  createdAt: row.created_at,
});

/** Where answers are kept, one statement each (SQL in `sqlite/answers.ts` and `postgres/answers.ts`). */
export interface AnswerRows {
  insert(answer: StoredAnswer, createdAt: number): Promise<void>;
  get(id: string): Promise<(StoredAnswer & { createdAt: number }) | undefined>;
  deleteBefore(time: number): Promise<void>;
}

/**
 * Rendered answers kept for half an hour, so "Share" posts exactly what the person saw and "More"
 * shows the pages that did not fit in one message. An answer that carries a secret (a card-details
 * or PIN link) is never stored.
 */
export class AnswerStore {
  readonly #rows: AnswerRows;
  #lastPrune = 0;

  constructor(rows: AnswerRows) {
    this.#rows = rows;
  }

  async save(answer: Omit<StoredAnswer, 'id'>): Promise<string> {
    const id = randomBytes(12).toString('hex');
    const now = Date.now();
    // Old answers go at most once a minute: each write is a commit, and answers come in bursts.
    if (now - this.#lastPrune > 60_000) {
      this.#lastPrune = now;
      await this.#rows.deleteBefore(now - KEEP_MS);
    }
    await this.#rows.insert({ ...answer, id }, now);
    return id;
  }

  async get(id: string): Promise<StoredAnswer | undefined> {
    const row = await this.#rows.get(id);
    if (row === undefined || row.createdAt < Date.now() - KEEP_MS) return undefined;
    const { createdAt: _, ...answer } = row;
    return answer;
  }
}
