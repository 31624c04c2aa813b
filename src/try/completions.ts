import type { Registry } from '../core/registry.js';
import { SHORT_FORMS } from '../slack/commands/short-forms.js';
import { slackTools } from '../slack/services.js';

/** One line of the composer's completions: what it inserts, its grammar, what it does. */
export interface Completion {
  insert: string;
  usage: string;
  what: string;
}

/** The words of a usage line before its first placeholder: `payout <amount> …` inserts `payout `. */
const fixedWords = (usage: string): string => {
  const words: string[] = [];
  for (const word of usage.split(' ')) {
    if (/[<[|]/.test(word)) break;
    words.push(word);
  }
  return `${words.join(' ')} `;
};

/**
 * The app's own completions for `/bank …`: its short forms (the lines of `/bank help`) and every
 * tool it offers, from the same lists the app's grammar and help are made of.
 */
export function bankCompletions(registry: Registry): Completion[] {
  return [
    { insert: '/bank help ', usage: '/bank help [form | tool | group]', what: 'what you may do, and how' },
    ...SHORT_FORMS.map((form) => ({
      insert: `/bank ${fixedWords(form.usage)}`,
      usage: `/bank ${form.usage}`,
      what: form.what,
    })),
    ...slackTools(registry).map((tool) => ({
      insert: `/bank ${tool.name} `,
      usage: `/bank ${tool.name} key=value …`,
      what: tool.title,
    })),
  ];
}
