/**
 * `concord list <url>`: lists tasks (ListTasks, A2A 1.0 only) as a table, newest first as the
 * agent orders them, with the token of the next page when there is one.
 */
import { parseArgs } from 'node:util';
import type { ListTasksRequest, ListTasksResponse } from '../../protocol/index.js';
import { openAgent } from './agent-connection.js';
import { agentUrl, CALL_OPTIONS, CALL_OPTIONS_USAGE, checkCallFlags } from './call-flags.js';
import { runCall } from './call-runner.js';
import type { CliIo } from '../cli-io.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { countOption } from './get-command.js';
import { parseState, stateWord } from './task-text.js';

/** Usage text of `list`. */
export const LIST_USAGE = `Usage: concord list <url> [options]

Lists the agent's tasks (A2A 1.0 ListTasks).

Options:
  --context <id>       only tasks of this context
  --status <state>     only tasks in this state (working, input-required, completed, ...)
  --page-size <n>      tasks per page (the agent's default when absent)
  --page-token <t>     the page to fetch (printed under the previous page)

${CALL_OPTIONS_USAGE}`;

function table(page: ListTasksResponse): string {
  const rows = page.tasks.map((t) => [
    t.id,
    stateWord(t.status.state),
    t.contextId,
    t.status.timestamp ?? '',
  ]);
  const all = [['TASK', 'STATE', 'CONTEXT', 'UPDATED'], ...rows];
  const widths = [0, 1, 2].map((i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const lines = all.map((r) =>
    r
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell))
      .join('  ')
      .trimEnd(),
  );
  let out = `${lines.join('\n')}\n${page.tasks.length} of ${page.totalSize} task(s)\n`;
  if (page.nextPageToken !== '') out += `next page: --page-token ${page.nextPageToken}\n`;
  return out;
}

/** Runs `list`; returns the exit code. */
export function listCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'list', args, async (context) => {
    const { signal } = context;
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...CALL_OPTIONS,
        context: { type: 'string' },
        status: { type: 'string' },
        'page-size': { type: 'string' },
        'page-token': { type: 'string' },
      },
    });
    if (values.help === true) {
      io.write(`${LIST_USAGE}\n`);
      return EXIT.OK;
    }
    const url = agentUrl(positionals[0], LIST_USAGE);
    const request: ListTasksRequest = {};
    if (values.context !== undefined) request.contextId = values.context;
    if (values.status !== undefined) {
      const state = parseState(values.status);
      if (state === undefined)
        throw new UsageError(
          `--status: unknown state ${JSON.stringify(values.status)}; expected submitted, working, input-required, auth-required, completed, canceled, failed or rejected`,
        );
      request.status = state;
    }
    const pageSize = countOption(values['page-size'], '--page-size');
    if (pageSize !== undefined) request.pageSize = pageSize;
    if (values['page-token'] !== undefined) request.pageToken = values['page-token'];
    checkCallFlags(values);
    const client = await openAgent(url, values, context, io);
    try {
      const page = await client.listTasks(request, { signal });
      io.write(values.json === true ? `${JSON.stringify(page)}\n` : table(page));
      return EXIT.OK;
    } finally {
      client.close();
    }
  });
}
