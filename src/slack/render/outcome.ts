import type { ExecuteResult } from '../../core/results.js';
import { DATABASE_UNREACHABLE, describeFailure } from '../../present/failure.js';
import { actorName, nameActors } from '../../present/people.js';
import { context, escapeText, type SlackMessage, sections } from './message.js';

/** A person in a refusal: a Slack user as a mention, anyone else as every front end names them. */
const slackWho = (actorId: string): string =>
  actorId.startsWith('slack:') ? `<@${actorId.slice('slack:'.length)}>` : escapeText(actorName(actorId));

/** A policy's reason as Slack shows it: its people named (`<@U…>`), its text escaped. */
export const refusalWords = (reason: string): string => nameActors(escapeText(reason), slackWho);

const codeOf = (name: string): string => `\`${name.replaceAll('`', "'")}\``;

/**
 * The answers other than a tool's output, each one short line that says what happened and what to
 * do: a refusal with the policy's reason, invalid input field by field with where to see the
 * fields, a failure with the service's message and the advice of `src/present/failure.ts`.
 */
export function outcomeMessage(
  result: Exclude<ExecuteResult, { status: 'ok' | 'pending_approval' }>,
  readOnly: boolean,
): SlackMessage {
  switch (result.status) {
    case 'denied':
    case 'declined': {
      const text = `:no_entry: ${refusalWords(result.reason)}`;
      return { text, blocks: sections(text) };
    }
    case 'invalid': {
      const fields = result.errors.map((e) => (e.path === '' ? e.message : `${codeOf(e.path)} ${e.message}`));
      const text = `:warning: ${codeOf(result.tool)}: ${escapeText(fields.join('; '))}`;
      return {
        text,
        blocks: [
          ...sections(text),
          context(`\`/bank help ${result.tool}\` shows its fields and an example.`),
        ],
      };
    }
    case 'failed': {
      const words = describeFailure({ name: result.tool, readOnly }, result.error);
      const text = `:x: ${escapeText(words.headline)}`;
      const details = [
        ...words.issues.map(escapeText),
        escapeText(words.advice),
        ...words.facts.map(escapeText),
      ];
      return { text, blocks: [...sections(text), context(details.join(' · '))] };
    }
  }
}

/** A command that does not parse, or a refusal before anything ran, as one line (escaped: it may quote input). */
export const usageMessage = (text: string): SlackMessage => {
  const line = `:warning: ${escapeText(text)}`;
  return { text: line, blocks: sections(line) };
};

/**
 * bankops's database cannot be reached: said in the words of every front end, naming the tool when
 * one was asked for (and that it ran, when only its answer needed the database).
 */
export function databaseDownMessage(tool?: { name: string; ran?: string }): SlackMessage {
  const what = tool === undefined ? '' : `${codeOf(tool.name)}: `;
  const text = `:x: ${what}${DATABASE_UNREACHABLE.state}`;
  const ran =
    tool?.ran === undefined
      ? []
      : [`It ended ${tool.ran}, but its answer cannot be shown without the database.`];
  return { text, blocks: [...sections(text), context([...ran, DATABASE_UNREACHABLE.advice].join(' · '))] };
}
