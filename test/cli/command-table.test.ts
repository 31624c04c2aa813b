import { afterAll, describe, expect, it } from 'vitest';
import { VARIABLES } from '../../src/app/variables.js';
import { COMMAND_NAMES, type CommandName, commandEntry } from '../../src/cli/commands/table.js';
import { cliHome, runCliHere } from '../helpers/cli.js';

/**
 * The command table (src/cli/commands/table.ts) against each command's own help: the subcommands
 * its usage lines name and the options it lists are the table's, so `bankops --help` and the
 * completions, made from the table, say what each command takes.
 */

const home = cliHome();
afterAll(() => home.cleanup());

/** A command's help as `bankops help <command>` prints it. */
async function helpOf(name: CommandName): Promise<string> {
  const help = await runCliHere(['help', name], home.env);
  expect(help.code, name).toBe(0);
  return help.stdout;
}

describe('the command table', () => {
  it('holds every subcommand and option of each command, as its help names them', async () => {
    for (const name of COMMAND_NAMES) {
      const help = await helpOf(name);
      const usages = help
        .split('\n')
        .map((line) => /^\s*(?:Usage:\s*)?bankops (\S+) ([a-z]\S*)/.exec(line))
        .filter((match) => match?.[1] === name)
        .flatMap((match) => (match?.[2] ?? '').split('|'));
      const entry = commandEntry(name);
      expect(new Set(usages), `${name}: subcommands`).toEqual(new Set(entry.subcommands ?? []));
      const options = help.match(/(?<![\w-])--?[a-z][a-z-]*/g) ?? [];
      expect(new Set(options), `${name}: options`).toEqual(new Set(entry.options ?? []));
    }
  });

  it('makes the overview of bankops --help: every command, subcommand and variable', async () => {
    const overview = await runCliHere(['--help'], home.env);
    expect(overview.code).toBe(0);
    for (const name of COMMAND_NAMES) {
      expect(overview.stdout, name).toContain(`bankops ${name}`);
      for (const sub of commandEntry(name).subcommands ?? [])
        expect(overview.stdout, `${name} ${sub}`).toMatch(new RegExp(`bankops ${name} (\\S+\\|)?${sub}\\b`));
    }
    expect(overview.stdout).toContain('bankops approvals list|show|watch|executing|approve|reject|cancel\n');
    expect(overview.stdout).toContain('bankops approvals reconcile|ask-again|break-glass|review ');
    for (const variable of VARIABLES) expect(overview.stdout, variable.name).toContain(variable.name);
  });

  it('makes the completions of every shell: every command and its subcommands', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = (await runCliHere(['completion', shell], home.env)).stdout;
      for (const name of COMMAND_NAMES) {
        expect(script, `${shell}: ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
        for (const sub of commandEntry(name).subcommands ?? [])
          expect(script, `${shell}: ${name} ${sub}`).toMatch(new RegExp(`\\b${sub}\\b`));
      }
    }
  });
});
