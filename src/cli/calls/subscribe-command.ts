/**
 * `concord subscribe <url> <taskId>`: re-attaches to a running task's stream (SubscribeToTask)
 * and shows it live until it ends or waits, or prints NDJSON with `--json`.
 */
import { parseArgs } from 'node:util';
import type { TaskState } from '../../protocol/index.js';
import { agentUrl, CALL_OPTIONS, CALL_OPTIONS_USAGE, checkCallFlags, connectClient } from './call-flags.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { LiveView } from './live-view.js';
import { exitForState, interfaceLine, stateOf } from './send-command.js';

/** Usage text of `subscribe`. */
export const SUBSCRIBE_USAGE = `Usage: concord subscribe <url> <taskId> [options]

Follows a running task's events until it ends or waits for input.

${CALL_OPTIONS_USAGE}`;

/** Runs `subscribe`; returns the exit code. */
export function subscribeCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'subscribe', args.includes('--json'), async ({ signal }) => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: CALL_OPTIONS });
    if (values.help === true) {
      io.write(`${SUBSCRIBE_USAGE}\n`);
      return EXIT.OK;
    }
    const url = agentUrl(positionals[0], SUBSCRIBE_USAGE);
    const id = positionals[1];
    if (id === undefined) throw new UsageError(`missing the task id\n\n${SUBSCRIBE_USAGE}`);
    checkCallFlags(values);
    const client = await connectClient(url, values, signal);
    const view = values.json === true ? undefined : new LiveView(io, url.href);
    try {
      if (view !== undefined) {
        io.write(interfaceLine(client));
        view.startProgress();
      }
      let state: TaskState | undefined;
      for await (const event of client.subscribeToTask({ id }, { signal })) {
        state = stateOf(event) ?? state;
        if (view === undefined) io.write(`${JSON.stringify(event)}\n`);
        else view.event(event);
      }
      return exitForState(view === undefined ? state : view.finish());
    } finally {
      view?.stopProgress();
      client.close();
    }
  });
}
