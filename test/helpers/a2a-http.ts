/** Plain A2A 1.0 HTTP+JSON calls for tests that drive several servers at once. */
import type { SseEvent } from '../../src/protocol/internal.js';
import { readSse } from './sse-client.js';

const HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };

/** A task as the 1.0 REST binding returns it (only what the tests read). */
export interface WireTask {
  id: string;
  contextId: string;
  status: { state: string; message?: { parts: { text?: string }[] } };
  artifacts?: { artifactId: string; parts: { text?: string }[] }[];
}

/** `POST /message:send`; resolves with the task. */
export async function sendText(url: string, text: string, returnImmediately = true): Promise<WireTask> {
  const response = await fetch(`${url}message:send`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
      configuration: { returnImmediately },
    }),
  });
  const body = (await response.json()) as { task?: WireTask };
  if (response.status !== 200 || body.task === undefined)
    throw new Error(`send failed: ${response.status} ${JSON.stringify(body)}`);
  return body.task;
}

/** `GET /tasks/{id}`; resolves with the status code and body. */
export async function getTask(url: string, id: string): Promise<{ status: number; task: WireTask }> {
  const response = await fetch(`${url}tasks/${id}`, { headers: HEADERS });
  return { status: response.status, task: (await response.json()) as WireTask };
}

/** `POST /tasks/{id}:cancel`; resolves with the status code and body. */
export async function cancel(url: string, id: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}tasks/${id}:cancel`, { method: 'POST', headers: HEADERS, body: '{}' });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** One SSE event of a task stream, decoded. */
export interface StreamEvent {
  id: string | undefined;
  data: Record<string, unknown>;
}

/** `GET /tasks/{id}:subscribe` (with `Last-Event-ID` when given), read until the server closes it. */
export async function subscribe(
  url: string,
  id: string,
  options: { lastEventId?: string; stopAfter?: number; timeoutMs?: number } = {},
): Promise<{ status: number; events: StreamEvent[]; closedByServer: boolean }> {
  const headers: Record<string, string> = { 'a2a-version': '1.0' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const read = await readSse(
    `${url}tasks/${id}:subscribe`,
    { headers },
    {
      ...(options.stopAfter === undefined ? {} : { stopAfter: options.stopAfter }),
      timeoutMs: options.timeoutMs ?? 15_000,
    },
  );
  return { status: read.status, events: read.events.map(decoded), closedByServer: read.closedByServer };
}

function decoded(event: SseEvent): StreamEvent {
  return { id: event.id, data: JSON.parse(event.data) as Record<string, unknown> };
}

/** The state an event reports, if any. */
export function stateOf(event: StreamEvent): string | undefined {
  const status = (event.data.statusUpdate ?? event.data.task) as { status?: { state?: string } } | undefined;
  return status?.status?.state;
}

/** The text chunks of the artifact updates of a stream, in order. */
export function chunks(events: StreamEvent[]): string[] {
  return events.flatMap((event) => {
    const update = event.data.artifactUpdate as { artifact: { parts: { text?: string }[] } } | undefined;
    return update === undefined ? [] : update.artifact.parts.map((part) => part.text ?? '');
  });
}

/** Polls `read` until `done` holds for its value, or fails after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
