/**
 * `concord task subscribe <taskId> -a <agent>` (and the earlier `concord subscribe <url> <id>`):
 * re-attaches to a running task's stream (SubscribeToTask) until it ends or waits. `-o json`
 * prints the task the events add up to, as one document; `-o json --stream` each StreamResponse
 * as a JSON Lines line (a2a-cli SPEC v0.2 §9.3, Appendix B).
 */
import { parseArgs } from 'node:util';
import { openAgent } from './agent-connection.js';
import { agentOf, refArgument } from './agent-ref.js';
import { CALL_OPTIONS, CALL_OPTIONS_USAGE, checkCallFlags, outputOf } from './call-flags.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { A2ACLI_ERR, CliFailure, EXIT, UsageError } from '../exit-codes.js';
import { interfaceFields, streamEnd } from './send-command.js';
import { eventText, type Resume } from './task-text.js';
import { outcomeWarning, TaskFold } from './task-outcome.js';

/** Usage text of `task subscribe`. */
export const SUBSCRIBE_USAGE = `Usage: concord task subscribe <taskId> -a <agent> [options]
       concord subscribe <url> <taskId> [options]   (the earlier form, still accepted)

Follows a running task's events until it ends or waits for input or authentication.

Options:
  --stream             with -o json: each event as a JSON Lines line (without it, the task the
                       events add up to, as one document)

${CALL_OPTIONS_USAGE}`;

/** Runs `task subscribe`; returns the exit code. */
export function subscribeCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'subscribe', args, async (context) => {
    const { signal } = context;
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { ...CALL_OPTIONS, stream: { type: 'boolean', default: false } },
    });
    if (values.help === true) {
      io.write(`${SUBSCRIBE_USAGE}\n`);
      return EXIT.OK;
    }
    const { ref, rest } = agentOf(values, positionals, SUBSCRIBE_USAGE);
    const [id, extra] = rest;
    if (id === undefined) throw new UsageError(`missing the task id\n\n${SUBSCRIBE_USAGE}`);
    if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
    checkCallFlags(values);
    const json = outputOf(values) === 'json';
    const lines = json && values.stream === true;
    const client = await openAgent(ref, values, context, io);
    const resume: Resume = { agent: refArgument(ref) };
    try {
      if (!json) io.write(`${interfaceFields(client)}\n`);
      const fold = new TaskFold();
      for await (const event of client.subscribeToTask({ id }, { signal })) {
        fold.apply(event);
        if (lines) io.write(`${JSON.stringify(event)}\n`);
        else if (!json) io.write(eventText(event));
      }
      if (!json) io.write(streamEnd(fold, resume));
      if (json && !lines) {
        if (fold.task === undefined)
          throw new CliFailure(A2ACLI_ERR.INTERNAL, 'the stream ended without a task', EXIT.FAILURE);
        io.write(`${JSON.stringify(fold.task)}\n`);
      }
      const warning = fold.task === undefined ? undefined : outcomeWarning(fold.task);
      if (warning !== undefined) io.err(warning);
      return EXIT.OK;
    } finally {
      client.close();
    }
  });
}
