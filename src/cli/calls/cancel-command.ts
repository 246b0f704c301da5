/** `concord cancel <url> <taskId>`: asks the agent to cancel a task (CancelTask) and prints it. */
import { parseArgs } from 'node:util';
import { openAgent } from './agent-connection.js';
import { agentUrl, CALL_OPTIONS, CALL_OPTIONS_USAGE, checkCallFlags } from './call-flags.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { taskText } from './task-text.js';

/** Usage text of `cancel`. */
export const CANCEL_USAGE = `Usage: concord cancel <url> <taskId> [options]

Cancels a task and prints it as the agent answers.

${CALL_OPTIONS_USAGE}`;

/** Runs `cancel`; returns the exit code. */
export function cancelCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'cancel', args, async (context) => {
    const { signal } = context;
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: CALL_OPTIONS });
    if (values.help === true) {
      io.write(`${CANCEL_USAGE}\n`);
      return EXIT.OK;
    }
    const url = agentUrl(positionals[0], CANCEL_USAGE);
    const id = positionals[1];
    if (id === undefined) throw new UsageError(`missing the task id\n\n${CANCEL_USAGE}`);
    checkCallFlags(values);
    const client = await openAgent(url, values, context, io);
    try {
      const task = await client.cancelTask({ id }, { signal });
      io.write(values.json === true ? `${JSON.stringify(task)}\n` : taskText(task, false));
      return EXIT.OK;
    } finally {
      client.close();
    }
  });
}
