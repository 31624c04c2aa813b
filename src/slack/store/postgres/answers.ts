import type { SlackMessage } from '../../render/message.js';
import type { AnswerRows } from '../answers.js';
import { type PgStore, statement } from './database.js';

interface Row {
  id: string;
  user_id: string;
  tool: string;
  pages_json: string;
  shareable: boolean;
  created_at: number;
}

export function postgresAnswers(store: PgStore): AnswerRows {
  return {
    insert: async (answer, createdAt) => {
      await statement(
        store,
        `INSERT INTO slack_pages (id, user_id, tool, pages_json, shareable, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [answer.id, answer.userId, answer.tool, JSON.stringify(answer.pages), answer.shareable, createdAt],
      );
    },
    get: async (id) => {
      const found = await statement<Row>(
        store,
        'SELECT id, user_id, tool, pages_json, shareable, created_at FROM slack_pages WHERE id = $1',
        [id],
      );
      const row = found.rows[0];
      if (row === undefined) return undefined;
      return {
        id: row.id,
        userId: row.user_id,
        tool: row.tool,
        pages: JSON.parse(row.pages_json) as SlackMessage[],
        shareable: row.shareable,
        createdAt: row.created_at,
      };
    },
    deleteBefore: async (time) => {
      await statement(store, 'DELETE FROM slack_pages WHERE created_at < $1', [time]);
    },
  };
}
