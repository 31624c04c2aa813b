import { type AnswerRow, type AnswerRows, answerOf } from '../answers.js';
import { type PgStore, pgJson, statement } from './database.js';

export function postgresAnswers(store: PgStore): AnswerRows {
  return {
    insert: async (answer, createdAt) => {
      await statement(
        store,
        `INSERT INTO slack_pages (id, user_id, tool, pages_json, shareable, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [answer.id, answer.userId, answer.tool, pgJson.write(answer.pages), answer.shareable, createdAt],
      );
    },
    get: async (id) => {
      const found = await statement<AnswerRow>(
        store,
        'SELECT id, user_id, tool, pages_json, shareable, created_at FROM slack_pages WHERE id = $1',
        [id],
      );
      const row = found.rows[0];
      return row === undefined ? undefined : answerOf(row, pgJson.read);
    },
    deleteBefore: async (time) => {
      await statement(store, 'DELETE FROM slack_pages WHERE created_at < $1', [time]);
    },
  };
}
