/**
 * The four push-config operations and the config given inline with a send, as the request
 * handler runs them (A2A 1.0 §3.1.7-3.1.10, §3.2.2 `taskPushNotificationConfig`). Each first
 * loads the task in the caller's scope, so a task the caller may not see reads as not found (A2A
 * 1.0 §13.1) and its configs with it. Field paths in errors follow the wire of the call: 1.0 is
 * flat (`/url`), 0.3 wraps the config (`/pushNotificationConfig/url`), and inline configs sit
 * under the send's configuration, named per binding in 0.3 (A2A 0.3 §7.1.1).
 */
import {
  invalidParams,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type SendMessageRequest,
  type TaskPushNotificationConfig,
  type TaskPushNotificationConfigRef,
} from '../../protocol/internal.js';
import type { PushConfigRecord, StoredTask } from '../../store/index.js';
import type { CallContext } from '../call-context.js';
import type { ConfigLocation } from './push-configs.js';
import type { PushNotifications } from './push-notifications.js';

/** Loads a task the caller may see, or throws TaskNotFound. */
export type TaskLoader = (taskId: string, call: CallContext) => Promise<StoredTask>;

/** 0.3 over HTTP+JSON and gRPC speaks the 0.3 proto's names; over JSON-RPC, `types.ts` names. */
function protoNames(call: CallContext): boolean {
  return call.binding === 'HTTP+JSON' || call.binding === 'GRPC';
}

function createLocation(call: CallContext): ConfigLocation {
  if (call.version === '1.0') return { fields: '', taskId: '/taskId' };
  return { fields: '/pushNotificationConfig', taskId: protoNames(call) ? '/name' : '/taskId' };
}

function inlineLocation(call: CallContext): ConfigLocation {
  if (call.version === '1.0') return { fields: '/configuration/taskPushNotificationConfig' };
  return { fields: `/configuration/${protoNames(call) ? 'pushNotification' : 'pushNotificationConfig'}` };
}

/** Create / set. */
export async function createConfig(
  push: PushNotifications,
  load: TaskLoader,
  config: TaskPushNotificationConfig,
  call: CallContext,
): Promise<TaskPushNotificationConfig> {
  const at = createLocation(call);
  if (config.taskId === '')
    throw invalidParams(at.taskId ?? '/taskId', 'is required: the task to notify about');
  const stored = await load(config.taskId, call);
  const record = await push.configs.prepare(
    config,
    { taskId: stored.task.id, tenant: stored.tenant, version: call.version },
    at,
  );
  return push.configs.put(record);
}

const DEFAULT_ALIAS = 'default';

/**
 * The config id a 0.3 get or delete means. In 0.3 a task's default config is the one whose id is
 * the task id (decision 0086); the id `default` names it too unless a config is stored under
 * that very id, because clients built on a2a-python 0.3 (whose server ignores the id on get) ask
 * for `default` after creating a config without an id, the 0.3 kit among them (decision 0143).
 */
async function configIdFor(
  push: PushNotifications,
  taskId: string,
  id: string | undefined,
  call: CallContext,
): Promise<string> {
  if (id === undefined || id === '') return taskId;
  if (call.version !== '0.3' || id !== DEFAULT_ALIAS) return id;
  const { configs } = await push.configs.list(taskId);
  return configs.some((c) => c.id === DEFAULT_ALIAS) ? DEFAULT_ALIAS : taskId;
}

/** Get; 0.3 without a config id (or with `default`) reads the task's default config. */
export async function getConfig(
  push: PushNotifications,
  load: TaskLoader,
  ref: TaskPushNotificationConfigRef,
  call: CallContext,
): Promise<TaskPushNotificationConfig> {
  const stored = await load(ref.taskId, call);
  return push.configs.get(stored.task.id, await configIdFor(push, stored.task.id, ref.id, call));
}

/** List. */
export async function listConfigs(
  push: PushNotifications,
  load: TaskLoader,
  request: ListTaskPushNotificationConfigsRequest,
  call: CallContext,
): Promise<ListTaskPushNotificationConfigsResponse> {
  const stored = await load(request.taskId, call);
  return push.configs.list(stored.task.id, request.pageSize, request.pageToken);
}

/** Delete; idempotent for a config that is not there, TaskNotFound for a task that is not. */
export async function deleteConfig(
  push: PushNotifications,
  load: TaskLoader,
  ref: TaskPushNotificationConfigRef,
  call: CallContext,
): Promise<void> {
  if (ref.id === undefined || ref.id === '') {
    throw invalidParams(call.version === '0.3' ? '/pushNotificationConfigId' : '/id', 'is required');
  }
  const stored = await load(ref.taskId, call);
  await push.configs.delete(stored.task.id, await configIdFor(push, stored.task.id, ref.id, call));
}

/**
 * The config given with a send, checked and sealed for task `taskId`; it is then created in the
 * same store transaction as the task's first commit of this run (TaskCommit `pushConfigs`), so it
 * receives the task's first events too.
 */
export async function inlineConfig(
  push: PushNotifications,
  request: SendMessageRequest,
  target: { taskId: string; tenant: string; existing: boolean },
  call: CallContext,
): Promise<PushConfigRecord[] | undefined> {
  const config = request.configuration?.taskPushNotificationConfig;
  if (config === undefined) return undefined;
  const at = inlineLocation(call);
  const record = await push.configs.prepare(
    config,
    { taskId: target.taskId, tenant: target.tenant, version: call.version },
    at,
  );
  if (target.existing) await push.configs.checkRoom(record);
  return [record];
}
