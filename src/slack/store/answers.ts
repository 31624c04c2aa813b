import { randomBytes } from 'node:crypto';
import type { SlackMessage } from '../render/message.js';
import type { Db } from './database.js';

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
 * Rendered answers kept for half an hour, so "Share" posts exactly what the person saw and "More"
 * shows the pages that did not fit in one message. An answer that carries a secret (a card-details
 * or PIN link) is never stored.
 */
export class AnswerStore {
  readonly #db: Db;
  #lastPrune = 0;

  constructor(db: Db) {
    this.#db = db;
  }

  save(answer: Omit<StoredAnswer, 'id'>): string {
    const id = randomBytes(12).toString('hex');
    const now = Date.now();
    // Old answers go at most once a minute: each write is a commit, and answers come in bursts.
    if (now - this.#lastPrune > 60_000) {
      this.#lastPrune = now;
      this.#db.prepare('DELETE FROM slack_pages WHERE created_at < ?').run(now - KEEP_MS);
    }
    this.#db
      .prepare(
        'INSERT INTO slack_pages (id, user_id, tool, pages_json, shareable, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(id, answer.userId, answer.tool, JSON.stringify(answer.pages), answer.shareable ? 1 : 0, now);
    return id;
  }

  get(id: string): StoredAnswer | undefined {
    const row = this.#db
      .prepare('SELECT id, user_id, tool, pages_json, shareable, created_at FROM slack_pages WHERE id = ?')
      .get(id) as
      | {
          id: string;
          user_id: string;
          tool: string;
          pages_json: string;
          shareable: number;
          created_at: number;
        }
      | undefined;
    if (row === undefined || row.created_at < Date.now() - KEEP_MS) return undefined;
    return {
      id: row.id,
      userId: row.user_id,
      tool: row.tool,
      pages: JSON.parse(row.pages_json) as SlackMessage[],
      shareable: row.shareable === 1,
    };
  }
}
