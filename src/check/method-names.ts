/**
 * The JSON-RPC method names of each version, as digest §11 items 13 and 14 list them (the check
 * judges servers against the spec's table, so it keeps its own copy rather than the client's).
 * 0.3 has no ListTasks over JSON-RPC (digest §2).
 */
import type { ProtocolVersion } from '../protocol/index.js';

/** The operations, by the spec's names. */
export type Operation =
  | 'sendMessage'
  | 'sendStreamingMessage'
  | 'getTask'
  | 'listTasks'
  | 'cancelTask'
  | 'subscribeToTask'
  | 'createTaskPushNotificationConfig'
  | 'getTaskPushNotificationConfig'
  | 'listTaskPushNotificationConfigs'
  | 'deleteTaskPushNotificationConfig'
  | 'getExtendedAgentCard';

/** Method name per operation and version. */
export const METHOD_NAMES: Readonly<Record<ProtocolVersion, Partial<Record<Operation, string>>>> = {
  '0.3': {
    sendMessage: 'message/send',
    sendStreamingMessage: 'message/stream',
    getTask: 'tasks/get',
    cancelTask: 'tasks/cancel',
    subscribeToTask: 'tasks/resubscribe',
    createTaskPushNotificationConfig: 'tasks/pushNotificationConfig/set',
    getTaskPushNotificationConfig: 'tasks/pushNotificationConfig/get',
    listTaskPushNotificationConfigs: 'tasks/pushNotificationConfig/list',
    deleteTaskPushNotificationConfig: 'tasks/pushNotificationConfig/delete',
    getExtendedAgentCard: 'agent/getAuthenticatedExtendedCard',
  },
  '1.0': {
    sendMessage: 'SendMessage',
    sendStreamingMessage: 'SendStreamingMessage',
    getTask: 'GetTask',
    listTasks: 'ListTasks',
    cancelTask: 'CancelTask',
    subscribeToTask: 'SubscribeToTask',
    createTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
    getTaskPushNotificationConfig: 'GetTaskPushNotificationConfig',
    listTaskPushNotificationConfigs: 'ListTaskPushNotificationConfigs',
    deleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfig',
    getExtendedAgentCard: 'GetExtendedAgentCard',
  },
};
