/**
 * `concord subscribe <url> <taskId>`: re-attaches to a running task's stream (SubscribeToTask)
 * and shows it live until it ends or waits, or prints NDJSON with `--json`.
 */
import { parseArgs } from 'node:util';
import { openAgent } from './agent-connection.js';
import { agentUrl, CALL_OPTIONS, CALL_OPTIONS_USAGE, checkCallFlags } from './call-flags.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { LiveView } from './live-view.js';
import { interfaceLine } from './send-command.js';
import { outcomeWarning, TaskFold } from './task-outcome.js';

/** Usage text of `subscribe`. */
export const SUBSCRIBE_USAGE = `Usage: concord subscribe <url> <taskId> [options]

Follows a running task's events until it ends or waits for input.

${CALL_OPTIONS_USAGE}`;

/** Runs `subscribe`; returns the exit code. */
export function subscribeCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'subscribe', args, async (context) => {
    const { signal } = context;
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: CALL_OPTIONS });
    if (values.help === true) {
      io.write(`${SUBSCRIBE_USAGE}\n`);
      return EXIT.OK;
    }
    const url = agentUrl(positionals[0], SUBSCRIBE_USAGE);
    const id = positionals[1];
    if (id === undefined) throw new UsageError(`missing the task id\n\n${SUBSCRIBE_USAGE}`);
    checkCallFlags(values);
    const client = await openAgent(url, values, context, io);
    const view = values.json === true ? undefined : new LiveView(io, url.href);
    try {
      if (view !== undefined) {
        io.write(interfaceLine(client));
        view.startProgress();
      }
      const fold = new TaskFold();
      for await (const event of client.subscribeToTask({ id }, { signal })) {
        fold.apply(event);
        if (view === undefined) io.write(`${JSON.stringify(event)}\n`);
        else view.event(event);
      }
      view?.finish();
      const warning = fold.task === undefined ? undefined : outcomeWarning(fold.task);
      if (warning !== undefined) io.err(warning);
      return EXIT.OK;
    } finally {
      view?.stopProgress();
      client.close();
    }
  });
}
