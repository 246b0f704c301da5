/**
 * `concord send -a <agent> [text...]` (and the earlier `concord send <url> [text...]`): sends a
 * message (SendMessage, or SendStreamingMessage with `--stream`) and reports the task, live as
 * it runs (a2a-cli SPEC v0.2 §8.2; decisions 0038, 0169). `-o json` prints the
 * SendMessageResponse as one document, `-o json --stream` each StreamResponse as a JSON Lines
 * line.
 */
import { A2AClientError, A2ALocalError, type A2AClient } from '../../client/index.js';
import type {
  SendMessageConfiguration,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskState,
} from '../../protocol/index.js';
import { openAgent } from './agent-connection.js';
import { agentOf, refArgument, type AgentRef } from './agent-ref.js';
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
import { EXIT, UsageError } from '../exit-codes.js';
import { buildMessage, PART_OPTIONS, partSpecs } from './message-input.js';
import { pushConfigOf, requirePush } from './push-config-command.js';
import { endsWait, outcomeWarning, TaskFold } from './task-outcome.js';
import { pollTask, pollIntervalOf } from './task-wait.js';
import { eventText, field, isVerbose, messageText, sentText, taskText, type Resume } from './task-text.js';

/** Usage text of `send`. */
export const SEND_USAGE = `Usage: concord send -a <agent> [text...] [options]
       concord send <url> [text...] [options]   (the earlier form, still accepted)

Sends a message to the agent and shows the task as it runs, until it ends or waits for input
or authentication.

Message parts, in the order given (the text arguments make one text part where they stand):
  --text <string>         a text part
  --file <path|url>       a file part: a local file inline (base64 bytes), a URL by reference
                          (the agent fetches it; the CLI does not)
  --data <path|->         a data part from a JSON file, or stdin with -; --data also takes the
                          JSON itself when it starts with { or [ (--data '{"order": 42}')
  --media-type <type>     the media type of the part flag right before it (default: inferred
                          from a file's extension, application/json for data)
  (--text-part, --file-part and --data-part are the same flags, --data-part for files only)

Options:
  --contract <name>       send the payload (--data, or the text as JSON) as a typed contract message
  --correlation-id <id>   the contract envelope's correlationId (default: a fresh UUID)
  --stream                stream the task's events as they happen (with -o json: JSON Lines)
  --async                 return as soon as the agent has the task, with its ids
                          (--no-wait and --return-immediately are aliases)
  --wait                  wait until the task ends or waits for input or auth (the default):
                          the stream, or GetTask every --poll-interval
  --poll-interval <duration>
                          how often a wait asks for the task (default 2s; slower while it
                          does not change, at most four times this)
  --context-id <id>       start the task in this context (--context is an alias)
  --task-id <id>          answer a task that waits for input or auth (--task is an alias)
  --push-url <url>        have the agent post the task's updates to this webhook (its push config)
  --push-token <token>    a token the agent sends with every post (needs --push-url)

${CALL_OPTIONS_USAGE}`;

/** The state a streamed event or result reports, if any. */
export function stateOf(event: StreamResponse): TaskState | undefined {
  if ('task' in event) return event.task.status.state;
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  return undefined;
}

/** The fields naming the agent and the interface chosen, above the text output. */
export function interfaceFields(client: A2AClient): string {
  const t = client.transport;
  return (
    field('Agent', client.card.name) +
    field('Interface', `${t.protocolBinding} ${t.protocolVersion} ${t.url}`)
  );
}

/**
 * The end of a streamed text output (SPEC §9.2: the last thing rendered restates the ids and the
 * state), with how to resume or follow the task.
 */
export function streamEnd(fold: TaskFold, resume: Resume): string {
  const task = fold.task;
  if (task === undefined) return '';
  return taskText({ id: task.id, contextId: task.contextId, status: task.status }, { resume });
}

/** The agent would not stream at all (its answer to the streaming call, before any event). */
function streamRefused(error: unknown): boolean {
  if (error instanceof A2AClientError) return error.type === 'UnsupportedOperationError';
  return error instanceof A2ALocalError && error.kind === 'UNSUPPORTED_OPERATION';
}

/** A stream that broke on the way (the connection, or an answer that is not one), not a refusal. */
function streamBroke(error: unknown): boolean {
  return error instanceof A2ALocalError && ['NETWORK', 'TIMEOUT', 'BAD_RESPONSE'].includes(error.kind);
}

/** One value from a canonical flag and its alias; both given and different is a usage error. */
export function aliased(
  canonical: string | undefined,
  alias: string | undefined,
  canonicalName: string,
  aliasName: string,
): string | undefined {
  if (canonical !== undefined && alias !== undefined && canonical !== alias)
    throw new UsageError(`${canonicalName} and ${aliasName} (its alias) disagree`);
  return canonical ?? alias;
}

/** Runs `send`; returns the exit code. */
export function sendCommand(args: string[], io: CliIo): Promise<number> {
  let agent: AgentRef | undefined;
  let taskId: string | undefined;
  const resume = (): string | undefined =>
    taskId === undefined || agent === undefined
      ? undefined
      : `the task goes on at the agent: concord task subscribe ${taskId} -a ${refArgument(agent)}`;
  return runCall(
    io,
    'send',
    args,
    async (context) => {
      const { signal } = context;
      const { values, positionals, tokens } = parseCall(
        {
          args,
          allowPositionals: true,
          tokens: true,
          options: {
            ...CALL_OPTIONS,
            ...PART_OPTIONS,
            contract: { type: 'string' },
            'correlation-id': { type: 'string' },
            stream: { type: 'boolean', default: false },
            async: { type: 'boolean', default: false },
            'no-wait': { type: 'boolean', default: false },
            'return-immediately': { type: 'boolean', default: false },
            wait: { type: 'boolean', default: false },
            'context-id': { type: 'string' },
            context: { type: 'string' },
            'task-id': { type: 'string' },
            task: { type: 'string' },
            'push-url': { type: 'string' },
            'push-token': { type: 'string' },
            'poll-interval': { type: 'string' },
          },
        },
        io,
      );
      if (values.help === true) return printHelp(io, SEND_USAGE, values);
      const { ref } = agentOf(values, positionals, SEND_USAGE);
      agent = ref;
      const noWait =
        values.async === true || values['no-wait'] === true || values['return-immediately'] === true;
      if (noWait && values.wait === true) throw new UsageError('--async and --wait contradict');
      // Every input mistake is reported before anything goes on the network.
      const message = buildMessage({
        // The parts in command-line order; without -a the first argument named the agent.
        parts: partSpecs(tokens, values['agent-card'] === undefined ? 1 : 0),
        contract: values.contract,
        correlationId: values['correlation-id'],
        contextId: aliased(values['context-id'], values.context, '--context-id', '--context'),
        taskId: aliased(values['task-id'], values.task, '--task-id', '--task'),
      });
      const push = pushConfigOf(values);
      checkCallFlags(values);
      const intervalMs = pollIntervalOf(values['poll-interval']);
      const json = outputOf(values) === 'json';
      const stream = values.stream === true;
      startTimeout(values, context);
      const client = await openAgent(ref, values, context, io);
      const resume: Resume = { agent: refArgument(ref) };
      // SPEC §6.2: a rejected --task-id is the agent's protocol error; --debug shows the exchange.
      if (message.taskId !== undefined)
        context.facts.protocolHint = `the agent did not take the reply to task ${message.taskId}; re-run with --debug to see the protocol exchange`;
      try {
        if (push !== undefined) requirePush(client.card);
        if (!json) io.write(`${interfaceFields(client)}${stream ? '\n' : ''}`);
        if (!json && isVerbose()) io.write(sentText(message));
        const fold = new TaskFold();
        const show = (event: StreamResponse): void => {
          fold.apply(event);
          taskId ??= fold.task?.id;
          if (!stream) return;
          io.write(json ? `${JSON.stringify(event)}\n` : eventText(event));
        };
        // The config's task is the one this send creates: taskId stays empty (A2A 1.0 §3.2.2).
        const configuration: SendMessageConfiguration = {
          ...(noWait ? { returnImmediately: true } : {}),
          ...(push === undefined ? {} : { taskPushNotificationConfig: { ...push, taskId: '' } }),
        };
        const request: SendMessageRequest =
          Object.keys(configuration).length === 0 ? { message } : { message, configuration };
        // SPEC §8.2, §11.3: stream only where the card says the agent can; otherwise send, then poll.
        let streaming = stream && client.card.capabilities.streaming === true;
        if (stream && !streaming)
          io.err(`notice: the card of "${client.card.name}" declares no streaming; sending without a stream`);
        let response: SendMessageResponse | undefined;
        if (streaming) {
          try {
            for await (const event of client.sendStreamingMessage(request, { signal })) show(event);
          } catch (error) {
            if (signal.aborted) throw error;
            if (fold.task === undefined && fold.message === undefined && streamRefused(error)) {
              io.err('notice: the agent refused to stream; sending without a stream');
              streaming = false;
            } else if (fold.task !== undefined && !endsWait(fold.task.status.state) && streamBroke(error)) {
              // SPEC §7.3: a wait that preferred the stream falls back to polling when it fails.
              io.err(
                `warning: the stream failed (${(error as Error).message}); polling task ${fold.task.id}`,
              );
            } else throw error;
          }
        }
        if (!streaming) {
          response = await client.sendMessage(request, { signal });
          show(response);
        }
        // The client-driven wait (SPEC §4.5, §7.3): until terminal or interrupted, unless --async.
        const pending = fold.task;
        if (!noWait && pending !== undefined && !endsWait(pending.status.state)) {
          io.err(
            `waiting for task ${pending.id} (context ${pending.contextId}, ${pending.status.state}); Ctrl-C leaves it running`,
          );
          const done = await pollTask(client, pending.id, {
            intervalMs,
            signal,
            knownState: pending.status.state,
            ...(stream ? { onChange: (task: Task) => show({ task }) } : {}),
          });
          if (!stream) show({ task: done });
          if (response !== undefined && 'task' in response) response = { task: done };
        }
        if (stream) {
          if (!json) io.write(streamEnd(fold, resume));
        } else if (response !== undefined) {
          if (json) io.write(`${JSON.stringify(response)}\n`);
          else
            io.write(
              'task' in response ? taskText(response.task, { resume }) : messageText(response.message),
            );
        }
        // The task's outcome is reported, not an exit code (a2a-cli SPEC §9.6).
        const warning = fold.task === undefined ? undefined : outcomeWarning(fold.task);
        if (warning !== undefined) io.err(warning);
        return EXIT.OK;
      } finally {
        client.close();
      }
    },
    resume,
  );
}
