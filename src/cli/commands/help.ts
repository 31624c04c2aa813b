import { didYouMean } from '../../present/suggest.js';
import { createRegistry } from '../../tools/index.js';
import { cliConfig } from '../config.js';
import { EXIT, out, UsageError } from '../io.js';
import { terminalWidth } from '../output.js';
import { renderToolHelp } from '../tool-help.js';

export const HELP_HELP = `Usage: bankops help [<command> | <tool>]

Without a topic: the commands. With a command (call, approvals, audit, sandbox, ...): its usage and
options. With a tool (bankops tools lists them): what it does, each field (type, required, default,
allowed values) and an example that works on the embedded sandbox.
`;

export interface HelpTopics {
  /** The help without a topic: the commands. */
  overview: string;
  /** The commands, for did-you-mean. */
  topics: readonly string[];
  /** The help text of a command, or undefined when there is no such command. */
  helpOf(name: string): Promise<string | undefined>;
}

export async function helpCommand(
  args: readonly string[],
  { overview, topics, helpOf }: HelpTopics,
): Promise<number> {
  const [topic] = args;
  if (topic === undefined) {
    out(overview);
    return EXIT.ok;
  }
  if (topic === '--help' || topic === '-h' || topic === 'help') {
    out(HELP_HELP);
    return EXIT.ok;
  }
  const command = await helpOf(topic);
  if (command !== undefined) {
    out(command);
    return EXIT.ok;
  }
  const registry = createRegistry();
  const tool = registry.get(topic);
  if (tool !== undefined) {
    out(renderToolHelp(tool, cliConfig().defaults, Math.min(terminalWidth(), 100)));
    return EXIT.ok;
  }
  const hint = didYouMean(topic, [...topics, ...registry.names()]);
  throw new UsageError(
    `no help for '${topic}': it is neither a command nor a tool${hint === '' ? '' : `; ${hint}`} (bankops tools lists the tools)`,
  );
}
