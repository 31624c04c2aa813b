import type { Registry } from '../../core/registry.js';
import { toolHelp } from '../../present/tool-help.js';
import { createRegistry } from '../../tools/index.js';
import { EXIT, out, UsageError } from '../io.js';
import { COMMAND_NAMES, commandEntry } from './table.js';

export const COMPLETION_HELP = `Usage: bankops completion bash|zsh|fish

Prints a completion script for the shell: commands, subcommands, options, tool names after call
and help, and a tool's fields (key=) after its name, from the registry, as bankops help lists them.

  bash   source <(bankops completion bash)
         (or save it as ~/.local/share/bash-completion/completions/bankops)
  zsh    source <(bankops completion zsh)    (after compinit)
  fish   bankops completion fish > ~/.config/fish/completions/bankops.fish
`;

/** The command words, from the command table (and `help`, which takes a command or a tool). */
const COMMANDS = [...COMMAND_NAMES, 'help'];

/** What follows each command word: its subcommands (call and help take a tool instead). */
const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  COMMAND_NAMES.flatMap((name) => {
    const { subcommands } = commandEntry(name);
    return subcommands === undefined ? [] : [[name, subcommands]];
  }),
);

/** Each command's options, as its help lists them. */
const OPTIONS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  COMMAND_NAMES.flatMap((name) => {
    const { options } = commandEntry(name);
    return options === undefined ? [] : [[name, options]];
  }),
);

/** Each tool's fields as `key=` words, nested ones dotted (`bank.accountNumber=`). */
function toolFields(registry: Registry): [string, string[]][] {
  return registry.list().map((tool) => [tool.name, toolHelp(tool).fields.map((f) => `${f.name}=`)]);
}

const words = (list: readonly string[]): string => list.join(' ');

function bash(registry: Registry): string {
  const tools = registry.names();
  const fieldCases = toolFields(registry)
    .map(([name, fields]) => `      ${name}) fields="${words(fields)}" ;;`)
    .join('\n');
  const subCases = Object.entries(SUBCOMMANDS)
    .map(
      ([command, subs]) =>
        `    ${command}) COMPREPLY=($(compgen -W "${words(subs)} ${words(OPTIONS[command] ?? [])}" -- "$cur")) ;;`,
    )
    .join('\n');
  const optionCases = Object.entries(OPTIONS)
    .map(([command, options]) => `    ${command}) COMPREPLY=($(compgen -W "${words(options)}" -- "$cur")) ;;`)
    .join('\n');
  return `# bankops completion for bash: source <(bankops completion bash)
_bankops() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" command="\${COMP_WORDS[1]}" fields=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${words(COMMANDS)}" -- "$cur")); return
  fi
  if [ "$command" = call ] || [ "$command" = help ]; then
    if [ "$COMP_CWORD" -eq 2 ]; then
      COMPREPLY=($(compgen -W "${words(tools)} ${words(COMMANDS)}" -- "$cur")); return
    fi
    [ "$command" = help ] && return
    case "\${COMP_WORDS[2]}" in
${fieldCases}
    esac
    COMPREPLY=($(compgen -W "$fields ${words(OPTIONS.call ?? [])}" -- "$cur"))
    case "\${COMPREPLY[0]}" in *=) compopt -o nospace 2>/dev/null ;; esac
    return
  fi
  if [ "$COMP_CWORD" -eq 2 ]; then
    case "$command" in
${subCases}
${optionCases}
    esac
    return
  fi
  case "$command" in
${optionCases}
  esac
}
complete -F _bankops bankops
`;
}

function zsh(registry: Registry): string {
  const fieldCases = toolFields(registry)
    .map(([name, fields]) => `        ${name}) compadd -S '' -- ${words(fields)} ;;`)
    .join('\n');
  const subCases = Object.entries(SUBCOMMANDS)
    .map(
      ([command, subs]) =>
        `      ${command}) (( CURRENT == 3 )) && compadd -- ${words(subs)}; compadd -- ${words(OPTIONS[command] ?? [])} ;;`,
    )
    .join('\n');
  const optionCases = Object.entries(OPTIONS)
    .filter(([command]) => SUBCOMMANDS[command] === undefined && command !== 'call')
    .map(([command, options]) => `      ${command}) compadd -- ${words(options)} ;;`)
    .join('\n');
  return `#compdef bankops
# bankops completion for zsh: source <(bankops completion zsh), after compinit
_bankops() {
  if (( CURRENT == 2 )); then
    compadd -- ${words(COMMANDS)}; return
  fi
  case $words[2] in
    call|help)
      if (( CURRENT == 3 )); then
        compadd -- ${words(registry.names())}; [[ $words[2] == help ]] && compadd -- ${words(COMMANDS)}; return
      fi
      [[ $words[2] == help ]] && return
      case $words[3] in
${fieldCases}
      esac
      compadd -- ${words(OPTIONS.call ?? [])}
      ;;
${subCases}
${optionCases}
  esac
}
compdef _bankops bankops
`;
}

function fish(registry: Registry): string {
  const lines = [
    '# bankops completion for fish: bankops completion fish > ~/.config/fish/completions/bankops.fish',
    'complete -c bankops -f',
    `complete -c bankops -n __fish_use_subcommand -a '${words(COMMANDS)}'`,
    `complete -c bankops -n '__fish_seen_subcommand_from call help; and test (count (commandline -opc)) -eq 2' -a '${words(registry.names())}'`,
    ...toolFields(registry).map(
      ([name, fields]) =>
        `complete -c bankops -n '__fish_seen_subcommand_from call; and __fish_seen_subcommand_from ${name}' -a '${words(fields)}'`,
    ),
    ...Object.entries(SUBCOMMANDS).map(
      ([command, subs]) =>
        `complete -c bankops -n '__fish_seen_subcommand_from ${command}; and test (count (commandline -opc)) -eq 2' -a '${words(subs)}'`,
    ),
    ...Object.entries(OPTIONS).flatMap(([command, options]) =>
      options.map((option) =>
        option.startsWith('--')
          ? `complete -c bankops -n '__fish_seen_subcommand_from ${command}' -l ${option.slice(2)}`
          : `complete -c bankops -n '__fish_seen_subcommand_from ${command}' -s ${option.slice(1)}`,
      ),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

const SHELLS: Readonly<Record<string, (registry: Registry) => string>> = { bash, zsh, fish };

export function completionCommand(args: string[]): number {
  const [shell, ...rest] = args;
  if (shell === '--help' || shell === '-h' || shell === 'help') {
    out(COMPLETION_HELP);
    return EXIT.ok;
  }
  const make = shell !== undefined && Object.hasOwn(SHELLS, shell) ? SHELLS[shell] : undefined;
  if (make === undefined || rest.length > 0)
    throw new UsageError(
      shell === undefined
        ? 'completion needs a shell: bash, zsh or fish'
        : `no completion for '${shell}'; bash, zsh or fish`,
      COMPLETION_HELP,
    );
  out(make(createRegistry()));
  return EXIT.ok;
}
