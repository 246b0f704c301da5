/**
 * `concord push-config <create|get|list|delete> <url> <taskId> ...`: a task's push-notification
 * configs at an agent (A2A 1.0 §3.1.7-3.1.10), the caller's side of push. The subcommands and
 * `--id`, `--auth-scheme`, `--auth-credentials` are a2a-cli's (`a2a task push-config ...`); the
 * webhook is `--push-url` and its token `--push-token` because `--token` is the bearer token of
 * every calling command, the same two flags `send` takes (decision 0142). `concord push` stays
 * the operator's dead-letter view (decision 0087).
 */
import type { AgentCard, TaskPushNotificationConfig } from '../../protocol/index.js';
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
import { CliFailure, EXIT, UsageError } from '../exit-codes.js';
import { countOption } from './get-command.js';
import { field } from './task-text.js';

/** Usage text of `task push-config`. */
export const PUSH_CONFIG_USAGE = `Usage: concord task push-config create <taskId> -a <agent> --push-url <webhook> [options]
       concord task push-config get <taskId> <configId> -a <agent> [options]
       concord task push-config list <taskId> -a <agent> [--page-size n] [--page-token t]
       concord task push-config delete <taskId> <configId> -a <agent> [options]
       concord push-config <action> <url> <taskId> ...   (the earlier form, still accepted)

Manages where the agent posts a task's updates (its push-notification configs).
(concord push is the server operator's view of deliveries given up.)

Options of create:
  --push-url <url>            the webhook the agent posts updates to (required)
  --id <id>                   the config's id (default: the agent assigns one)
  --push-token <token>        a token the agent sends with every post, for the webhook to check
  --auth-scheme <scheme>      how the agent authenticates to the webhook (e.g. Bearer)
  --auth-credentials <value>  the credentials it presents (needs --auth-scheme)
Options of list:
  --page-size <n>             at most n configs
  --page-token <t>            the page after a previous list

${CALL_OPTIONS_USAGE}`;

const ACTIONS = ['create', 'get', 'list', 'delete'] as const;
type Action = (typeof ACTIONS)[number];

/** The push config a send or create asks for, from the flags (taskId filled in by the caller). */
export function pushConfigOf(values: {
  'push-url'?: string | undefined;
  'push-token'?: string | undefined;
  id?: string | undefined;
  'auth-scheme'?: string | undefined;
  'auth-credentials'?: string | undefined;
}): Omit<TaskPushNotificationConfig, 'taskId'> | undefined {
  const url = values['push-url'];
  if (url === undefined) {
    if (values['push-token'] !== undefined) throw new UsageError('--push-token needs --push-url');
    return undefined;
  }
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`--push-url: expected an http(s) URL, got ${JSON.stringify(url)}`);
  const scheme = values['auth-scheme'];
  const credentials = values['auth-credentials'];
  if (credentials !== undefined && scheme === undefined)
    throw new UsageError('--auth-credentials needs --auth-scheme');
  return {
    url,
    ...(values.id === undefined ? {} : { id: values.id }),
    ...(values['push-token'] === undefined ? {} : { token: values['push-token'] }),
    ...(scheme === undefined
      ? {}
      : { authentication: { scheme, ...(credentials === undefined ? {} : { credentials }) } }),
  };
}

/**
 * Push configs only for an agent whose card declares push notifications (SPEC §11.3): otherwise
 * the protocol's PushNotificationNotSupportedError, before anything is sent.
 */
export function requirePush(card: AgentCard): void {
  if (card.capabilities.pushNotifications !== true)
    throw new CliFailure(
      'PushNotificationNotSupportedError',
      `the card of "${card.name}" does not declare push notifications (capabilities.pushNotifications)`,
      EXIT.FAILURE,
      'poll the task instead: concord task get <taskId> -a <agent> --wait',
    );
}

/** A config as text fields (SPEC §9.2); secrets (token, credentials) are named, not shown. */
function configText(config: TaskPushNotificationConfig): string {
  let out =
    field('Push config', config.id ?? '(no id)') + field('Task', config.taskId) + field('URL', config.url);
  if (config.token !== undefined && config.token !== '') out += field('Token', 'set (-o json shows it)');
  if (config.authentication !== undefined) out += field('Authentication', config.authentication.scheme);
  return out;
}

/** Runs `push-config`; returns the exit code. */
export function pushConfigCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'push-config', args, async (context) => {
    const { signal } = context;
    const { values, positionals } = parseCall(
      {
        args,
        allowPositionals: true,
        options: {
          ...CALL_OPTIONS,
          'push-url': { type: 'string' },
          'push-token': { type: 'string' },
          id: { type: 'string' },
          'auth-scheme': { type: 'string' },
          'auth-credentials': { type: 'string' },
          'page-size': { type: 'string' },
          'page-token': { type: 'string' },
        },
      },
      io,
    );
    const [action, ...afterAction] = positionals;
    if (values.help === true) return printHelp(io, PUSH_CONFIG_USAGE, values);
    if (action === undefined || !(ACTIONS as readonly string[]).includes(action))
      throw new UsageError(
        `${action === undefined ? 'missing the action' : `unknown action ${JSON.stringify(action)}`}; expected create, get, list or delete\n\n${PUSH_CONFIG_USAGE}`,
      );
    const { ref, rest } = agentOf(values, afterAction, PUSH_CONFIG_USAGE);
    const [taskId, configId, ...extra] = rest;
    if (taskId === undefined) throw new UsageError(`missing the task id\n\n${PUSH_CONFIG_USAGE}`);
    const needsId = action === 'get' || action === 'delete';
    if (needsId && configId === undefined)
      throw new UsageError(`${action}: missing the config id\n\n${PUSH_CONFIG_USAGE}`);
    if (extra.length > 0 || (!needsId && configId !== undefined))
      throw new UsageError(`${action}: unexpected ${JSON.stringify([configId, ...extra].at(-1))}`);
    const create = action === 'create' ? pushConfigOf(values) : undefined;
    if (action === 'create' && create === undefined) throw new UsageError('create: --push-url is required');
    const pageSize = countOption(values['page-size'], '--page-size');
    checkCallFlags(values);
    const json = outputOf(values) === 'json';
    startTimeout(values, context);
    const client = await openAgent(ref, values, context, io);
    try {
      requirePush(client.card);
      const show = (value: unknown, text: string): void =>
        io.write(json ? `${JSON.stringify(value)}\n` : text);
      switch (action as Action) {
        case 'create': {
          const config = await client.createTaskPushNotificationConfig({ ...create!, taskId }, { signal });
          show(config, configText(config));
          break;
        }
        case 'get': {
          const config = await client.getTaskPushNotificationConfig({ taskId, id: configId! }, { signal });
          show(config, configText(config));
          break;
        }
        case 'list': {
          const page = await client.listTaskPushNotificationConfigs(
            {
              taskId,
              ...(pageSize === undefined ? {} : { pageSize }),
              ...(values['page-token'] === undefined ? {} : { pageToken: values['page-token'] }),
            },
            { signal },
          );
          const more =
            page.nextPageToken === undefined || page.nextPageToken === '' ? '' : page.nextPageToken;
          let text = page.configs.map((config) => `${configText(config)}\n`).join('');
          text += field('Push configs', page.configs.length);
          if (more !== '') text += field('Next page token', more);
          show(page, text);
          break;
        }
        case 'delete':
          await client.deleteTaskPushNotificationConfig({ taskId, id: configId! }, { signal });
          show({}, field('Deleted push config', configId!) + field('Task', taskId));
          break;
      }
      return EXIT.OK;
    } finally {
      client.close();
    }
  });
}
