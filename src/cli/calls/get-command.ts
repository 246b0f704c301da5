/** `concord get <url> <taskId> [--history n]`: prints a task (GetTask). */
import { parseArgs } from 'node:util';
import type { GetTaskRequest } from '../../protocol/index.js';
import { openAgent } from './agent-connection.js';
import { agentUrl, CALL_OPTIONS, CALL_OPTIONS_USAGE, checkCallFlags } from './call-flags.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { outcomeWarning } from './task-outcome.js';
import { taskText } from './task-text.js';

/** Usage text of `get`. */
export const GET_USAGE = `Usage: concord get <url> <taskId> [options]

Prints a task: its state, artifacts and, with --history, its messages.

Options:
  --history <n>        include at most the last n messages of the history

${CALL_OPTIONS_USAGE}`;

/** Parses a non-negative integer option. */
export function countOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`${name}: expected a whole number of 0 or more, got ${JSON.stringify(value)}`);
  return n;
}

/** Runs `get`; returns the exit code. */
export function getCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'get', args, async (context) => {
    const { signal } = context;
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { ...CALL_OPTIONS, history: { type: 'string' } },
    });
    if (values.help === true) {
      io.write(`${GET_USAGE}\n`);
      return EXIT.OK;
    }
    const url = agentUrl(positionals[0], GET_USAGE);
    const id = positionals[1];
    if (id === undefined) throw new UsageError(`missing the task id\n\n${GET_USAGE}`);
    const history = countOption(values.history, '--history');
    checkCallFlags(values);
    const client = await openAgent(url, values, context, io);
    try {
      const request: GetTaskRequest = history === undefined ? { id } : { id, historyLength: history };
      const task = await client.getTask(request, { signal });
      io.write(values.json === true ? `${JSON.stringify(task)}\n` : taskText(task, history !== undefined));
      const warning = outcomeWarning(task);
      if (warning !== undefined) io.err(warning);
      return EXIT.OK;
    } finally {
      client.close();
    }
  });
}
