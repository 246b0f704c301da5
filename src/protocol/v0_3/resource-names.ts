/**
 * Resource names of the 0.3 proto (AIP-122). On the REST wire they survive in one body: the push
 * config `name`, `tasks/{id}/pushNotificationConfigs/{configId}` (A2A 0.3 §6.10, 0.3 proto
 * TaskPushNotificationConfig.name). Other calls carry their ids in the URL path.
 */
import { quote } from '../decode-kit.js';
import { invalidParams } from '../errors.js';

/** `tasks/{taskId}/pushNotificationConfigs/{configId}`, or `tasks/{taskId}` without a config id. */
export function pushConfigName(taskId: string, configId: string | undefined): string {
  return configId === undefined ? `tasks/${taskId}` : `tasks/${taskId}/pushNotificationConfigs/${configId}`;
}

/** A parsed resource name: the task id and, for a push config, its id. */
export interface ParsedName {
  taskId: string;
  configId?: string;
}

const TASK = /^tasks\/([^/]+)$/;
// The config id may be empty: both SDK generations create configs under
// `tasks/{id}/pushNotificationConfigs/` and leave the id to the server (decision 0136).
const PUSH_CONFIG = /^tasks\/([^/]+)\/pushNotificationConfigs(?:\/([^/]*))?$/;

function expectString(value: unknown, path: string, form: string): string {
  if (typeof value !== 'string') throw invalidParams(path, `expected a resource name "${form}"`);
  return value;
}

/**
 * Parses a push-config name. `tasks/{id}` alone, and the collection name with an empty or no
 * config id, are accepted too: a create body may not know the config id yet (the server then
 * mints it), and a get without one asks for the task's default config (decision 0086).
 */
export function parsePushConfigName(value: unknown, path: string): ParsedName {
  const text = expectString(value, path, 'tasks/{id}/pushNotificationConfigs/{configId}');
  const full = PUSH_CONFIG.exec(text);
  if (full !== null) {
    const configId = full[2];
    return configId === undefined || configId === ''
      ? { taskId: full[1] as string }
      : { taskId: full[1] as string, configId };
  }
  const task = TASK.exec(text);
  if (task !== null) return { taskId: task[1] as string };
  throw invalidParams(path, `expected "tasks/{id}/pushNotificationConfigs/{configId}", got ${quote(value)}`);
}
