/**
 * `concord task cancel <taskId> -a <agent>` (and the earlier `concord cancel <url> <taskId>`):
 * asks the agent to cancel a task (CancelTask, a2a-cli SPEC v0.2 §8.4) and prints the task as the
 * agent answers, its resulting state included.
 */
import { openAgent } from './agent-connection.js';
import { agentAndTaskOf } from './agent-ref.js';
import {
  CALL_OPTIONS,
  CALL_OPTIONS_USAGE,
  checkCallFlags,
  outputOf,
  startTimeout,
  parseCall,
  printHelp,
} from './call-flags.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { EXIT } from '../exit-codes.js';
import { taskText } from './task-text.js';

/** Usage text of `task cancel`. */
export const CANCEL_USAGE = `Usage: concord task cancel <taskId> -a <agent> [options]
       concord cancel <url> <taskId> [options]   (the earlier form, still accepted)

Cancels a task and prints it as the agent answers. A task that already ended cannot be
canceled: the agent says TaskNotCancelableError (exit 1).

Options:
  --stream             with -o json: the task as one JSON Lines line

${CALL_OPTIONS_USAGE}`;

/** Runs `task cancel`; returns the exit code. */
export function cancelCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'cancel', args, async (context) => {
    const { signal } = context;
    const { values, positionals } = parseCall(
      {
        args,
        allowPositionals: true,
        options: { ...CALL_OPTIONS, stream: { type: 'boolean', default: false } },
      },
      io,
    );
    if (values.help === true) return printHelp(io, CANCEL_USAGE, values);
    const { ref, id } = agentAndTaskOf(values, positionals, CANCEL_USAGE);
    checkCallFlags(values);
    const json = outputOf(values) === 'json';
    startTimeout(values, context);
    const client = await openAgent(ref, values, context, io);
    try {
      const task = await client.cancelTask({ id }, { signal });
      io.write(json ? `${JSON.stringify(task)}\n` : taskText(task));
      return EXIT.OK;
    } finally {
      client.close();
    }
  });
}
