import { type AnswerRow, type AnswerRows, answerOf } from '../answers.js';
import { type Db, sqliteJson, underFileLock } from './database.js';

/** SQLite keeps `shareable` as 0 or 1. */
type Row = Omit<AnswerRow, 'shareable'> & { shareable: number };

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
          sqliteJson.write(answer.pages),
          answer.shareable ? 1 : 0,
          createdAt,
        ),
      );
    },
    get: async (id) => {
      const row = select.get(id) as Row | undefined;
      return row === undefined
        ? undefined
        : answerOf({ ...row, shareable: row.shareable === 1 }, sqliteJson.read);
    },
    deleteBefore: async (time) => {
      await underFileLock(db, () => prune.run(time));
    },
  };
}
