/**
 * `concord completion <bash|zsh|fish>`: a shell completion script (a2a-cli SPEC v0.2 §5.1,
 * `A2ACLI_CLI_002`; decision 0169). It completes the commands, the subcommands of `task`, `card`,
 * `auth` and `config`, and the options of the calling commands; it is written from the same tables the
 * commands parse with, so it cannot name an option they do not take.
 */
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../cli-io.js';
import { CALL_OPTIONS } from './call-flags.js';
import { CONFORMANCE_OPTIONS } from './conformance-command.js';
import { PART_OPTIONS } from './message-input.js';
import { TASK_COMMANDS } from './task-command.js';

/** Usage text of `completion`. */
export const COMPLETION_USAGE = `Usage: concord completion <bash|zsh|fish>

Prints a completion script for the shell. Load it with, for example:
  bash:  source <(concord completion bash)
  zsh:   source <(concord completion zsh)
  fish:  concord completion fish | source`;

/** The subcommands of each command that has some. */
const SUBCOMMANDS: Record<string, string[]> = {
  task: TASK_COMMANDS,
  card: ['get', 'verify'],
  auth: ['login', 'status', 'logout'],
  config: ['show'],
  'push-config': ['create', 'get', 'list', 'delete'],
};

/** The options `send` adds to the shared ones (its parse table lives in send-command.ts). */
const SEND_OPTIONS = [
  'stream',
  'async',
  'no-wait',
  'return-immediately',
  'wait',
  'poll-interval',
  'context-id',
  'task-id',
  'contract',
  'correlation-id',
  'push-url',
  'push-token',
];

/** Every long option of the calling commands. */
function longOptions(): string[] {
  return [
    ...new Set([
      ...Object.keys(CALL_OPTIONS),
      ...Object.keys(PART_OPTIONS),
      ...SEND_OPTIONS,
      ...Object.keys(CONFORMANCE_OPTIONS),
    ]),
  ]
    .map((name) => `--${name}`)
    .sort();
}

function bash(commands: string[]): string {
  const cases = Object.entries(SUBCOMMANDS)
    .map(([command, subs]) => `      ${command}) words_="${subs.join(' ')}" ;;`)
    .join('\n');
  return `# concord completion for bash
_concord() {
  local cur prev words_
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "${longOptions().join(' ')}" -- "$cur") )
    return
  fi
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "${commands.join(' ')}" -- "$cur") )
    return
  fi
  if [[ $COMP_CWORD -eq 2 ]]; then
    case "$prev" in
${cases}
      *) words_="" ;;
    esac
    COMPREPLY=( $(compgen -W "$words_" -- "$cur") )
  fi
}
complete -o default -F _concord concord
`;
}

function zsh(commands: string[]): string {
  const cases = Object.entries(SUBCOMMANDS)
    .map(([command, subs]) => `    ${command}) compadd -- ${subs.join(' ')} ;;`)
    .join('\n');
  return `#compdef concord
# concord completion for zsh
_concord() {
  if [[ "$PREFIX" == -* ]]; then
    compadd -- ${longOptions().join(' ')}
    return
  fi
  if (( CURRENT == 2 )); then
    compadd -- ${commands.join(' ')}
    return
  fi
  if (( CURRENT == 3 )); then
    case "\${words[2]}" in
${cases}
    esac
  fi
  _files
}
compdef _concord concord
`;
}

function fish(commands: string[]): string {
  const lines = [
    '# concord completion for fish',
    'complete -c concord -f',
    `complete -c concord -n '__fish_use_subcommand' -a '${commands.join(' ')}'`,
  ];
  for (const [command, subs] of Object.entries(SUBCOMMANDS))
    lines.push(`complete -c concord -n '__fish_seen_subcommand_from ${command}' -a '${subs.join(' ')}'`);
  for (const option of longOptions()) lines.push(`complete -c concord -l ${option.slice(2)}`);
  return `${lines.join('\n')}\n`;
}

/** Runs `completion`; `commands` are the top-level command names. */
export function completionCommand(args: string[], io: CliIo, commands: string[]): Promise<number> {
  const [shell, extra] = args;
  if (shell === '--help' || shell === '-h') {
    io.write(`${COMPLETION_USAGE}\n`);
    return Promise.resolve(EXIT.OK);
  }
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  const all = [...commands, 'help'].sort();
  if (shell === 'bash') io.write(bash(all));
  else if (shell === 'zsh') io.write(zsh(all));
  else if (shell === 'fish') io.write(fish(all));
  else
    throw new UsageError(
      `${shell === undefined ? 'missing the shell' : `unknown shell ${JSON.stringify(shell)}`}; expected bash, zsh or fish\n\n${COMPLETION_USAGE}`,
    );
  return Promise.resolve(EXIT.OK);
}
