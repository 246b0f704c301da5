/**
 * `concord task <get|cancel|list|subscribe|push-config|download>`: the task commands under the names
 * a2a-cli SPEC v0.2 §5.1 gives them (commands on a protocol resource are namespaced by it). The
 * earlier flat names (`concord get`, `cancel`, `list`, `subscribe`, `push-config`) run the same
 * commands (decision 0169).
 */
import type { CliIo } from '../cli-io.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { cancelCommand } from './cancel-command.js';
import { downloadCommand } from './download-command.js';
import { getCommand } from './get-command.js';
import { listCommand } from './list-command.js';
import { pushConfigCommand } from './push-config-command.js';
import { subscribeCommand } from './subscribe-command.js';

/** Usage text of `task`. */
export const TASK_USAGE = `Usage: concord task <command> [options]   (concord help task <command>)

Commands:
  get <taskId>              print a task (--history n: with its messages)
  cancel <taskId>           cancel a task
  list                      list tasks (A2A 1.0)
  subscribe <taskId>        follow a running task
  push-config <action> ...  create, get, list or delete a task's push-notification configs
  download <taskId>         save a task's artifacts to files (--dir)

Each takes the agent as -a/--agent-card <ref>.`;

const SUBCOMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  get: getCommand,
  cancel: cancelCommand,
  list: listCommand,
  subscribe: subscribeCommand,
  'push-config': pushConfigCommand,
  download: downloadCommand,
};

/** The names of the task commands, for completion. */
export const TASK_COMMANDS = Object.keys(SUBCOMMANDS);

/** Runs `task <command>`; returns the exit code. */
export async function taskCommand(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === '--help' || name === '-h') {
    io.write(`${TASK_USAGE}\n`);
    return EXIT.OK;
  }
  if (name === undefined) throw new UsageError(`missing the task command\n\n${TASK_USAGE}`);
  const command = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (command === undefined)
    throw new UsageError(
      `unknown task command ${JSON.stringify(name)}; expected ${Object.keys(SUBCOMMANDS).join(', ')}`,
    );
  return command(rest, io);
}
