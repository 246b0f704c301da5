/**
 * The A2A operations by the spec's names (house style rule 3), and the JSON-RPC method that names
 * each one in each version (A2A 1.0 §5.3; A2A 0.3 §3.5.6). One table for the server's dispatch, the
 * client's requests and `concord check`'s probes. 0.3 has no ListTasks over JSON-RPC (A2A 0.3 §7, `tasks/list`).
 */
import type { ProtocolVersion } from './codec.js';

/** Every A2A operation (A2A 1.0 §3.1). */
export type OperationName =
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

/**
 * The JSON-RPC method of each operation, per version: 1.0 names every operation (a new one is a
 * compile error here until named), 0.3 only those its JSON-RPC has.
 */
export const JSON_RPC_METHOD_NAMES: {
  readonly '0.3': Readonly<Partial<Record<OperationName, string>>>;
  readonly '1.0': Readonly<Record<OperationName, string>>;
} = {
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

/** The operation of each JSON-RPC method, per version: the table above read backwards. */
export const JSON_RPC_OPERATIONS: Readonly<Record<ProtocolVersion, Readonly<Record<string, OperationName>>>> =
  {
    '0.3': invert(JSON_RPC_METHOD_NAMES['0.3']),
    '1.0': invert(JSON_RPC_METHOD_NAMES['1.0']),
  };

function invert(names: Partial<Record<OperationName, string>>): Record<string, OperationName> {
  // No prototype: a method called `constructor` or `toString` must not find anything.
  const out = Object.create(null) as Record<string, OperationName>;
  for (const [operation, method] of Object.entries(names)) out[method] = operation as OperationName;
  return out;
}
