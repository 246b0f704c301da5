/**
 * `concord send <url> [text...]`: sends a message (SendMessage, or SendStreamingMessage with
 * `--stream`) and shows the task live, or prints NDJSON with `--json` (decision 0038).
 */
import { parseArgs } from 'node:util';
import type { A2AClient } from '../../client/index.js';
import type {
  SendMessageConfiguration,
  SendMessageRequest,
  StreamResponse,
  TaskState,
} from '../../protocol/index.js';
import { openAgent } from './agent-connection.js';
import { agentUrl, CALL_OPTIONS, CALL_OPTIONS_USAGE, checkCallFlags } from './call-flags.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { EXIT } from '../exit-codes.js';
import { LiveView } from './live-view.js';
import { buildMessage } from './message-input.js';
import { pushConfigOf } from './push-config-command.js';
import { outcomeWarning, TaskFold } from './task-outcome.js';

/** Usage text of `send`. */
export const SEND_USAGE = `Usage: concord send <url> [text...] [options]

Sends a message to the agent at <url> and shows the task as it runs.

Options:
  --data <json>           add a data part (JSON)
  --contract <name>       send the payload (--data, or the text as JSON) as a typed contract message
  --correlation-id <id>   the contract envelope's correlationId (default: a fresh UUID)
  --stream                stream the task's events as they happen
  --no-wait               return as soon as the agent has the task (returnImmediately)
  --context <id>          continue a conversation (contextId)
  --task <id>             answer a task that waits for input (taskId)
  --push-url <url>        have the agent post the task's updates to this webhook (its push config)
  --push-token <token>    a token the agent sends with every post (needs --push-url)

${CALL_OPTIONS_USAGE}`;

/** The state a streamed event or result reports, if any. */
export function stateOf(event: StreamResponse): TaskState | undefined {
  if ('task' in event) return event.task.status.state;
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  return undefined;
}

/** The line naming the agent and the interface chosen, above the human view. */
export function interfaceLine(client: A2AClient): string {
  const t = client.transport;
  return `→ ${client.card.name} · ${t.protocolBinding} ${t.protocolVersion} · ${t.url}\n`;
}

/** Runs `send`; returns the exit code. */
export function sendCommand(args: string[], io: CliIo): Promise<number> {
  let view: LiveView | undefined;
  let target = '';
  const hint = (): string | undefined =>
    view?.taskId === undefined
      ? undefined
      : `the task goes on at the agent: concord subscribe ${target} ${view.taskId}`;
  return runCall(
    io,
    'send',
    args,
    async (context) => {
      const { signal } = context;
      const { values, positionals } = parseArgs({
        args,
        allowPositionals: true,
        options: {
          ...CALL_OPTIONS,
          data: { type: 'string' },
          contract: { type: 'string' },
          'correlation-id': { type: 'string' },
          stream: { type: 'boolean', default: false },
          'no-wait': { type: 'boolean', default: false },
          context: { type: 'string' },
          task: { type: 'string' },
          'push-url': { type: 'string' },
          'push-token': { type: 'string' },
        },
      });
      if (values.help === true) {
        io.write(`${SEND_USAGE}\n`);
        return EXIT.OK;
      }
      const url = agentUrl(positionals[0], SEND_USAGE);
      target = url.href;
      // Every input mistake is reported before anything goes on the network.
      const message = buildMessage({
        text: positionals.slice(1).join(' '),
        data: values.data,
        contract: values.contract,
        correlationId: values['correlation-id'],
        contextId: values.context,
        taskId: values.task,
      });
      const push = pushConfigOf(values);
      checkCallFlags(values);
      const client = await openAgent(url, values, context, io);
      const json = values.json === true;
      if (!json) view = new LiveView(io, url.href);
      try {
        if (view !== undefined) {
          io.write(interfaceLine(client));
          view.startProgress();
        }
        const fold = new TaskFold();
        const show = (event: StreamResponse): void => {
          fold.apply(event);
          if (view === undefined) io.write(`${JSON.stringify(event)}\n`);
          else view.event(event);
        };
        // The config's task is the one this send creates: taskId stays empty (A2A 1.0 §3.2.2).
        const configuration: SendMessageConfiguration = {
          ...(values['no-wait'] === true ? { returnImmediately: true } : {}),
          ...(push === undefined ? {} : { taskPushNotificationConfig: { ...push, taskId: '' } }),
        };
        const request: SendMessageRequest =
          Object.keys(configuration).length === 0 ? { message } : { message, configuration };
        if (values.stream === true) {
          for await (const event of client.sendStreamingMessage(request, { signal })) show(event);
        } else {
          show(await client.sendMessage(request, { signal }));
        }
        view?.finish();
        // The task's outcome is reported, not an exit code (a2a-cli SPEC §9.6).
        const warning = fold.task === undefined ? undefined : outcomeWarning(fold.task);
        if (warning !== undefined) io.err(warning);
        return EXIT.OK;
      } finally {
        view?.stopProgress();
        client.close();
      }
    },
    hint,
  );
}
