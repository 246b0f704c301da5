/**
 * `concord task list -a <agent>` (and the earlier `concord list <url>`): lists tasks (ListTasks,
 * A2A 1.0 only), newest first as the agent orders them, with the token of the next page when
 * there is one. `-o json` prints the ListTasksResponse; `-o json --stream` one Task per line.
 */
import type { ListTasksRequest, ListTasksResponse } from '../../protocol/index.js';
import { openAgent } from './agent-connection.js';
import { agentOf } from './agent-ref.js';
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
import { countOption } from './get-command.js';
import { aliased } from './send-command.js';
import { field, parseState, statusFields } from './task-text.js';

/** Usage text of `list`. */
export const LIST_USAGE = `Usage: concord task list -a <agent> [options]
       concord list <url> [options]              (the earlier form, still accepted)

Lists the agent's tasks (A2A 1.0 ListTasks).

Options:
  --context-id <id>    only tasks of this context (--context is an alias)
  --status <state>     only tasks in this state (working, input-required, completed, ...)
  --page-size <n>      tasks per page (the agent's default when absent)
  --page-token <t>     the page to fetch (its Next page token)
  --stream             with -o json: one Task per line (JSON Lines) instead of the page

${CALL_OPTIONS_USAGE}`;

/**
 * A page as text (SPEC §9.2): each task's fields, a blank line after each, then how many there
 * are and the token of the next page.
 */
function pageText(page: ListTasksResponse): string {
  let out = '';
  for (const task of page.tasks)
    out += `${field('Task', task.id)}${field('Context', task.contextId)}${statusFields(task.status)}\n`;
  out += field('Tasks', `${page.tasks.length} of ${page.totalSize}`);
  if (page.nextPageToken !== '') out += field('Next page token', page.nextPageToken);
  return out;
}

/** Runs `list`; returns the exit code. */
export function listCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'list', args, async (context) => {
    const { signal } = context;
    const { values, positionals } = parseCall(
      {
        args,
        allowPositionals: true,
        options: {
          ...CALL_OPTIONS,
          'context-id': { type: 'string' },
          context: { type: 'string' },
          status: { type: 'string' },
          stream: { type: 'boolean', default: false },
          'page-size': { type: 'string' },
          'page-token': { type: 'string' },
        },
      },
      io,
    );
    if (values.help === true) return printHelp(io, LIST_USAGE, values);
    const { ref, rest } = agentOf(values, positionals, LIST_USAGE);
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    const request: ListTasksRequest = {};
    const contextId = aliased(values['context-id'], values.context, '--context-id', '--context');
    if (contextId !== undefined) request.contextId = contextId;
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
    const json = outputOf(values) === 'json';
    startTimeout(values, context);
    const client = await openAgent(ref, values, context, io);
    try {
      const page = await client.listTasks(request, { signal });
      if (!json) io.write(pageText(page));
      else if (values.stream === true) io.write(page.tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
      else io.write(`${JSON.stringify(page)}\n`);
      return EXIT.OK;
    } finally {
      client.close();
    }
  });
}
