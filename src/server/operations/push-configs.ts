/**
 * The four push notification config operations (A2A 1.0 §3.1.7-3.1.10), gated by the card's
 * `capabilities.pushNotifications`; the config rules themselves live in push/push-operations.ts.
 */
import {
  A2AError,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type TaskPushNotificationConfig,
  type TaskPushNotificationConfigRef,
} from '../../protocol/index.js';
import type { CallContext } from '../call-context.js';
import type { PushNotifications } from '../push/push-notifications.js';
import { createConfig, deleteConfig, getConfig, listConfigs } from '../push/push-operations.js';
import type { HandlerContext } from './handler-context.js';

/** Push config create (A2A 1.0 §3.1.7). */
export async function createPushConfig(
  context: HandlerContext,
  config: TaskPushNotificationConfig,
  call: CallContext,
): Promise<TaskPushNotificationConfig> {
  return createConfig(requirePush(context), context.loader, config, call);
}

/** Push config get (A2A 1.0 §3.1.8): without the token or the credentials (decision 0088). */
export async function getPushConfig(
  context: HandlerContext,
  ref: TaskPushNotificationConfigRef,
  call: CallContext,
): Promise<TaskPushNotificationConfig> {
  return getConfig(requirePush(context), context.loader, ref, call);
}

/** Push config list (A2A 1.0 §3.1.9). */
export async function listPushConfigs(
  context: HandlerContext,
  request: ListTaskPushNotificationConfigsRequest,
  call: CallContext,
): Promise<ListTaskPushNotificationConfigsResponse> {
  return listConfigs(requirePush(context), context.loader, request, call);
}

/** Push config delete (A2A 1.0 §3.1.10): idempotent. */
export async function deletePushConfig(
  context: HandlerContext,
  ref: TaskPushNotificationConfigRef,
  call: CallContext,
): Promise<void> {
  return deleteConfig(requirePush(context), context.loader, ref, call);
}

/** The push machinery, when the card offers push (A2A 1.0 §3.3.4: else -32003). */
export function requirePush(context: HandlerContext): PushNotifications {
  if (context.push === undefined || context.card.capabilities.pushNotifications !== true) {
    throw new A2AError(
      'PushNotificationNotSupportedError',
      'Push Notification is not supported by this agent',
    );
  }
  return context.push;
}
