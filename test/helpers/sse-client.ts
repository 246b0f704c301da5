/** Reads an SSE response for tests: collects events until the server closes or a limit is hit. */
import { SseDecoder, type SseEvent } from '../../src/protocol/internal.js';

/** Events read, and whether the server closed the stream itself. */
export interface SseRead {
  status: number;
  headers: Headers;
  events: SseEvent[];
  closedByServer: boolean;
  /** Raw text, heartbeats included. */
  raw: string;
}

/** POSTs or GETs and reads the stream; `stopAfter` drops the connection after that many events. */
export async function readSse(
  url: string,
  init: RequestInit,
  options: { stopAfter?: number; timeoutMs?: number } = {},
): Promise<SseRead> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10_000);
  const response = await fetch(url, { ...init, signal: controller.signal });
  const events: SseEvent[] = [];
  let raw = '';
  let closedByServer = false;
  if (
    response.body === null ||
    !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')
  ) {
    clearTimeout(timer);
    raw = await response.text();
    return { status: response.status, headers: response.headers, events, closedByServer: true, raw };
  }
  const decoder = new SseDecoder();
  const reader = response.body.getReader();
  const text = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        closedByServer = true;
        break;
      }
      const chunk = text.decode(value, { stream: true });
      raw += chunk;
      events.push(...decoder.push(chunk));
      if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
        events.length = options.stopAfter;
        controller.abort();
        break;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return { status: response.status, headers: response.headers, events, closedByServer, raw };
}
