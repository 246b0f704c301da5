/**
 * The A2A operations the console makes, over HTTP+JSON 1.0 (A2A 1.0 §11) at each agent's own
 * endpoint below `/agents/<id>/`: the same routes and JSON any A2A client sends, with the
 * canonical model's types (Concord's model is the 1.0 wire form; type-only imports, nothing of
 * the server is bundled).
 */
import type { AgentCard } from '../../../src/protocol/agent-card';
import type {
  ListTasksResponse,
  Message,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
  TaskState,
} from '../../../src/protocol/model';
import { call, callJson } from './http';
import { readEvents } from './sse';

export type { AgentCard, Message, StreamResponse, Task, TaskPushNotificationConfig, TaskState };

/** The path of agent `id`'s endpoint, relative to the console page. */
export function agentBase(id: string): string {
  return `../agents/${encodeURIComponent(id)}/`;
}

/** The agent's card as served to `version` (A2A 1.0 §8.2; the version picks the card's form). */
export function getCard(id: string, version: '1.0' | '0.3'): Promise<AgentCard & Record<string, unknown>> {
  return callJson(`${agentBase(id)}.well-known/agent-card.json`, { headers: { 'a2a-version': version } });
}

/** SendStreamingMessage (A2A 1.0 §3.1.2): each event as it arrives. */
export async function* sendStreaming(
  id: string,
  message: Message,
  signal?: AbortSignal,
  headers?: Record<string, string>,
): AsyncGenerator<StreamResponse> {
  const response = await call(`${agentBase(id)}message:stream`, {
    method: 'POST',
    json: { message },
    headers: { accept: 'text/event-stream', ...headers },
    ...(signal === undefined ? {} : { signal }),
  });
  for await (const event of readEvents(response)) yield event as StreamResponse;
}

/** SubscribeToTask (A2A 1.0 §3.1.6): the task, then its events until it ends. */
export async function* subscribe(
  id: string,
  taskId: string,
  signal?: AbortSignal,
): AsyncGenerator<StreamResponse> {
  const response = await call(`${agentBase(id)}tasks/${encodeURIComponent(taskId)}:subscribe`, {
    method: 'POST',
    headers: { accept: 'text/event-stream' },
    ...(signal === undefined ? {} : { signal }),
  });
  for await (const event of readEvents(response)) yield event as StreamResponse;
}

/** GetTask (A2A 1.0 §3.1.3) with up to `historyLength` messages of history. */
export function getTask(id: string, taskId: string, historyLength?: number): Promise<Task> {
  const query = historyLength === undefined ? '' : `?historyLength=${historyLength}`;
  return callJson(`${agentBase(id)}tasks/${encodeURIComponent(taskId)}${query}`);
}

/** The filters of ListTasks (A2A 1.0 §3.1.4) the console offers. */
export interface TaskFilter {
  contextId?: string;
  status?: TaskState;
  /** RFC 3339: tasks whose status changed at or after this time. */
  statusTimestampAfter?: string;
  pageSize?: number;
  pageToken?: string;
}

/** ListTasks (A2A 1.0 §3.1.4). */
export function listTasks(id: string, filter: TaskFilter = {}): Promise<ListTasksResponse> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return callJson(`${agentBase(id)}tasks${text === '' ? '' : `?${text}`}`);
}

/** CancelTask (A2A 1.0 §3.1.5). */
export function cancelTask(id: string, taskId: string): Promise<Task> {
  return callJson(`${agentBase(id)}tasks/${encodeURIComponent(taskId)}:cancel`, { method: 'POST', json: {} });
}

/** ListTaskPushNotificationConfigs (A2A 1.0 §3.1.9). */
export async function listPushConfigs(id: string, taskId: string): Promise<TaskPushNotificationConfig[]> {
  const answer = await callJson<{ configs?: TaskPushNotificationConfig[] }>(
    `${agentBase(id)}tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs`,
  );
  return answer.configs ?? [];
}

/** A new message from the user: a fresh id, in the task or context given. */
export function userMessage(
  parts: Message['parts'],
  where: { taskId?: string | undefined; contextId?: string | undefined } = {},
): Message {
  return {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts,
    ...(where.taskId === undefined ? {} : { taskId: where.taskId }),
    ...(where.contextId === undefined ? {} : { contextId: where.contextId }),
  };
}
