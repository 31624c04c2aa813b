import { messageOf } from '../../core/errors.js';
import { ArgsError, inputFromArgs, tokenize } from '../../present/args.js';
import { didYouMean } from '../../present/suggest.js';
import type { Command } from './command.js';
import { commandWords, type GrammarContext, shortFormOf, usage } from './short-forms.js';

export type { GrammarContext } from './short-forms.js';

/**
 * Slack sends `&`, `<` and `>` of typed text as entities; channel links arrive as `<#C123|name>`
 * (the manifest sets `should_escape`). Entities are decoded after links are read.
 */
const decodeEntities = (text: string): string =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

function generic(word: string, rest: string[], context: GrammarContext): Command {
  const schema = context.schemaOf(word);
  if (schema === undefined) {
    const meant = didYouMean(word, [...commandWords(), ...context.toolNames]);
    return usage(
      `\`${word}\` is neither a tool nor a short form${meant === '' ? '.' : `; ${meant}`} \`/bank help\` lists what you can do.`,
    );
  }
  if (context.isSecretInput(word)) return { kind: 'tool', tool: word, input: {}, form: 'generic' };
  return { kind: 'tool', tool: word, input: inputFromArgs(rest, schema), form: 'generic' };
}

/** The command a `/bank` text stands for; never throws (a usage error is a command too). */
export function parseCommand(text: string, context: GrammarContext): Command {
  // Channel links stay whole tokens; everything else is decoded before tokenizing.
  const decoded = text.replace(/<#[^>]+>|[^<]+|</g, (part) =>
    part.startsWith('<#') ? part : decodeEntities(part),
  );
  let tokens: string[];
  try {
    tokens = tokenize(decoded);
  } catch (error) {
    return usage(messageOf(error));
  }
  const [word, ...rest] = tokens;
  try {
    if (word === undefined || word === 'help') {
      return rest[0] === undefined ? { kind: 'help' } : { kind: 'help', topic: rest.join(' ') };
    }
    return shortFormOf(word, rest)?.read(rest, context) ?? generic(word, rest, context);
  } catch (error) {
    if (error instanceof ArgsError) return usage(error.message);
    throw error;
  }
}
