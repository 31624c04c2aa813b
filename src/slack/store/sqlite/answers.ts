import type { SlackMessage } from '../../render/message.js';
import type { AnswerRows } from '../answers.js';
import { type Db, underFileLock } from './database.js';

interface Row {
  id: string;
  user_id: string;
  tool: string;
  pages_json: string;
  shareable: number;
  created_at: number;
}

export function sqliteAnswers(db: Db): AnswerRows {
  const insert = db.prepare(
    'INSERT INTO slack_pages (id, user_id, tool, pages_json, shareable, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const select = db.prepare(
    'SELECT id, user_id, tool, pages_json, shareable, created_at FROM slack_pages WHERE id = ?',
  );
  const prune = db.prepare('DELETE FROM slack_pages WHERE created_at < ?');
  return {
    insert: async (answer, createdAt) => {
      await underFileLock(db, () =>
        insert.run(
          answer.id,
          answer.userId,
          answer.tool,
          JSON.stringify(answer.pages),
          answer.shareable ? 1 : 0,
          createdAt,
        ),
      );
    },
    get: async (id) => {
      const row = select.get(id) as Row | undefined;
      if (row === undefined) return undefined;
      return {
        id: row.id,
        userId: row.user_id,
        tool: row.tool,
        pages: JSON.parse(row.pages_json) as SlackMessage[],
        shareable: row.shareable === 1,
        createdAt: row.created_at,
      };
    },
    deleteBefore: async (time) => {
      await underFileLock(db, () => prune.run(time));
    },
  };
}
