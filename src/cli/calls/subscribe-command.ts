/**
 * `concord task subscribe <taskId> -a <agent>` (and the earlier `concord subscribe <url> <id>`):
 * re-attaches to a running task's stream (SubscribeToTask) until it ends or waits. `-o json`
 * prints the task the events add up to, as one document; `-o json --stream` each StreamResponse
 * as a JSON Lines line (a2a-cli SPEC v0.2 §9.3, Appendix B).
 */
import { openAgent } from './agent-connection.js';
import { agentAndTaskOf, refArgument } from './agent-ref.js';
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
import { A2ALocalError } from '../../client/index.js';
import type { StreamResponse } from '../../protocol/index.js';
import { A2ACLI_ERR, CliFailure, EXIT } from '../exit-codes.js';
import { interfaceFields, streamEnd } from './send-command.js';
import { eventText, type Resume } from './task-text.js';
import { endsWait, outcomeWarning, TaskFold } from './task-outcome.js';
import { pollIntervalOf, pollTask } from './task-wait.js';

/** Usage text of `task subscribe`. */
export const SUBSCRIBE_USAGE = `Usage: concord task subscribe <taskId> -a <agent> [options]
       concord subscribe <url> <taskId> [options]   (the earlier form, still accepted)

Follows a running task's events until it ends or waits for input or authentication. An agent
whose card declares no streaming, or a stream that breaks, is polled instead (--poll-interval,
default 2s).

Options:
  --stream             with -o json: each event as a JSON Lines line (without it, the task the
                       events add up to, as one document)

${CALL_OPTIONS_USAGE}`;

/** Runs `task subscribe`; returns the exit code. */
export function subscribeCommand(args: string[], io: CliIo): Promise<number> {
  let hint: string | undefined;
  return runCall(
    io,
    'subscribe',
    args,
    async (context) => {
      const { signal } = context;
      const { values, positionals } = parseCall(
        {
          args,
          allowPositionals: true,
          options: {
            ...CALL_OPTIONS,
            stream: { type: 'boolean', default: false },
            'poll-interval': { type: 'string' },
          },
        },
        io,
      );
      if (values.help === true) return printHelp(io, SUBSCRIBE_USAGE, values);
      const { ref, id } = agentAndTaskOf(values, positionals, SUBSCRIBE_USAGE);
      checkCallFlags(values);
      const intervalMs = pollIntervalOf(values['poll-interval']);
      const json = outputOf(values) === 'json';
      const lines = json && values.stream === true;
      startTimeout(values, context);
      hint = `the task goes on at the agent: concord task get ${id} -a ${refArgument(ref)} --wait`;
      const client = await openAgent(ref, values, context, io);
      const resume: Resume = { agent: refArgument(ref) };
      try {
        if (!json) io.write(`${interfaceFields(client)}\n`);
        const fold = new TaskFold();
        const show = (event: StreamResponse): void => {
          fold.apply(event);
          if (lines) io.write(`${JSON.stringify(event)}\n`);
          else if (!json) io.write(eventText(event));
        };
        let poll = client.card.capabilities.streaming !== true;
        if (poll)
          io.err(
            `notice: the card of "${client.card.name}" declares no streaming; polling task ${id} instead`,
          );
        else {
          try {
            for await (const event of client.subscribeToTask({ id }, { signal })) show(event);
          } catch (error) {
            // SPEC §7.3: a stream that breaks on the way falls back to polling.
            if (
              signal.aborted ||
              !(error instanceof A2ALocalError) ||
              !['NETWORK', 'TIMEOUT', 'BAD_RESPONSE'].includes(error.kind)
            )
              throw error;
            io.err(`warning: the stream failed (${error.message}); polling task ${id}`);
            poll = true;
          }
        }
        if (poll || (fold.task !== undefined && !endsWait(fold.task.status.state))) {
          await pollTask(client, id, {
            intervalMs,
            signal,
            ...(fold.task === undefined ? {} : { knownState: fold.task.status.state }),
            onChange: (task) => show({ task }),
          });
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
    },
    () => hint,
  );
}
