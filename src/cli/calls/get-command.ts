/**
 * `concord task get <taskId> -a <agent>` (and the earlier `concord get <url> <taskId>`): prints a
 * task (GetTask, a2a-cli SPEC v0.2 §8.3): its ids, state and artifacts, and its history with
 * `--history n`. `-o json` prints the Task as the one document.
 */
import type { GetTaskRequest } from '../../protocol/index.js';
import { openAgent } from './agent-connection.js';
import { agentAndTaskOf, refArgument, type AgentRef } from './agent-ref.js';
import {
  CALL_OPTIONS,
  CALL_OPTIONS_USAGE,
  checkCallFlags,
  outputOf,
  startTimeout,
  parseCall,
  printHelp,
} from './call-flags.js';
import { pollIntervalOf, pollTask } from './task-wait.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { outcomeWarning } from './task-outcome.js';
import { taskText } from './task-text.js';

/** Usage text of `task get`. */
export const GET_USAGE = `Usage: concord task get <taskId> -a <agent> [options]
       concord get <url> <taskId> [options]      (the earlier form, still accepted)

Prints a task: its ids, state, artifacts and, with --history, its messages.

Options:
  --history <n>        include at most the last n messages of the history
  --wait               poll until the task ends or waits for input or auth (--watch is an
                       alias); each change of state is noted on stderr
  --poll-interval <duration>
                       with --wait: how often to ask (default 2s; slower while the state does
                       not change, at most four times this)
  --stream             with -o json: the task as one JSON Lines line

${CALL_OPTIONS_USAGE}`;

/** Parses a non-negative integer option. */
export function countOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`${name}: expected a whole number of 0 or more, got ${JSON.stringify(value)}`);
  return n;
}

/** Runs `task get`; returns the exit code. */
export function getCommand(args: string[], io: CliIo): Promise<number> {
  let agent: AgentRef | undefined;
  let taskId: string | undefined;
  const resume = (): string | undefined =>
    agent === undefined || taskId === undefined
      ? undefined
      : `the task goes on at the agent: concord task get ${taskId} -a ${refArgument(agent)} --wait`;
  return runCall(
    io,
    'get',
    args,
    async (context) => {
      const { signal } = context;
      const { values, positionals } = parseCall(
        {
          args,
          allowPositionals: true,
          options: {
            ...CALL_OPTIONS,
            history: { type: 'string' },
            stream: { type: 'boolean', default: false },
            wait: { type: 'boolean', default: false },
            watch: { type: 'boolean', default: false },
            'poll-interval': { type: 'string' },
          },
        },
        io,
      );
      if (values.help === true) return printHelp(io, GET_USAGE, values);
      const { ref, id } = agentAndTaskOf(values, positionals, GET_USAGE);
      const history = countOption(values.history, '--history');
      checkCallFlags(values);
      const wait = values.wait === true || values.watch === true;
      const intervalMs = pollIntervalOf(values['poll-interval']);
      if (values['poll-interval'] !== undefined && !wait)
        throw new UsageError('--poll-interval needs --wait');
      const json = outputOf(values) === 'json';
      startTimeout(values, context);
      agent = ref;
      taskId = id;
      const client = await openAgent(ref, values, context, io);
      try {
        const request: GetTaskRequest = history === undefined ? { id } : { id, historyLength: history };
        const task = wait
          ? await pollTask(client, id, {
              intervalMs,
              signal,
              historyLength: history,
              onChange: (changed) => io.err(`task ${id}: ${changed.status.state}`),
            })
          : await client.getTask(request, { signal });
        io.write(
          json
            ? `${JSON.stringify(task)}\n`
            : taskText(task, { history: history !== undefined, resume: { agent: refArgument(ref) } }),
        );
        const warning = outcomeWarning(task);
        if (warning !== undefined) io.err(warning);
        return EXIT.OK;
      } finally {
        client.close();
      }
    },
    resume,
  );
}
