/**
 * Graceful shutdown of `concord serve` (decision 0158), real processes on one SQLite data
 * directory. SIGTERM during an open stream ends the stream and the process exits 0; a new process
 * on the same directory lets the client resubscribe with Last-Event-ID and get every event after
 * its last one, none lost and none repeated. A blocking send running when the signal comes
 * finishes within the grace period and gets its answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sendText, serve } from './serve-helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-serve-shutdown-'));
  dirs.push(dir);
  return dir;
}

interface SseEvent {
  id: string;
  data: Record<string, unknown>;
}

/** Reads an SSE body, calling `onEvent` per event; resolves when the server ends the stream. */
async function readSse(response: Response, onEvent: (event: SseEvent) => void): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: ?(.*)$/m.exec(block)?.[1];
      const data = /^data: ?(.*)$/m.exec(block)?.[1];
      if (id !== undefined && data !== undefined)
        onEvent({ id, data: JSON.parse(data) as Record<string, unknown> });
    }
  }
}

const HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };

function taskIdOf(event: SseEvent): string | undefined {
  const data = event.data as {
    task?: { id: string };
    statusUpdate?: { taskId: string };
    artifactUpdate?: { taskId: string };
  };
  return data.task?.id ?? data.statusUpdate?.taskId ?? data.artifactUpdate?.taskId;
}

function stateOf(event: SseEvent): string | undefined {
  const data = event.data as {
    statusUpdate?: { status: { state: string } };
    task?: { status: { state: string } };
  };
  return data.statusUpdate?.status.state ?? data.task?.status.state;
}

describe('concord serve graceful shutdown', () => {
  it(
    'ends an open stream on SIGTERM; the client resumes on a new process without losing an event',
    { timeout: 60_000 },
    async () => {
      const dir = dataDir();
      const first = await serve(['examples/echo', '--port', '0', '--data-dir', dir]);
      const seen: SseEvent[] = [];
      const response = await fetch(`${first.url}message:stream`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({
          message: { messageId: 'm-shutdown', role: 'ROLE_USER', parts: [{ text: 'stream 50' }] },
        }),
      });
      expect(response.status).toBe(200);
      let stopped: Promise<number | null> | undefined;
      await readSse(response, (event) => {
        seen.push(event);
        if (seen.length === 4) stopped = first.stop('SIGTERM');
      });
      // The stream ended because the server stopped, not because the task finished.
      expect(stopped).toBeDefined();
      expect(await stopped).toBe(0);
      expect(first.stdout()).toContain('Concord stopped');
      const taskId = taskIdOf(seen[0]!)!;
      const lastId = seen.at(-1)!.id;
      expect(seen.map(stateOf)).not.toContain('TASK_STATE_COMPLETED');

      const second = await serve(['examples/echo', '--port', '0', '--data-dir', dir]);
      try {
        const resumed: SseEvent[] = [];
        const again = await fetch(`${second.url}tasks/${taskId}:subscribe`, {
          headers: { 'a2a-version': '1.0', 'last-event-id': lastId },
        });
        expect(again.status).toBe(200);
        await readSse(again, (event) => resumed.push(event));
        expect(resumed.length).toBeGreaterThan(0);
        // Every event after the last one seen, in order, none repeated: ids continue without a gap.
        const ids = [...seen, ...resumed].map((event) => Number(event.id));
        expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
        expect(resumed.every((event) => taskIdOf(event) === taskId)).toBe(true);
        // The new process settled the task its predecessor left running (decision 0119).
        expect(stateOf(resumed.at(-1)!)).toBe('TASK_STATE_FAILED');
      } finally {
        expect(await second.stop('SIGINT')).toBe(0);
      }
    },
  );

  it('lets a running blocking send finish within the grace period', { timeout: 30_000 }, async () => {
    const served = await serve([
      'examples/echo',
      '--port',
      '0',
      '--data-dir',
      dataDir(),
      '--shutdown-grace',
      '10s',
    ]);
    const pending = sendText(served.url, 'stream 8');
    // The send is running (8 chunks, 100 ms apart) when the signal comes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = served.stop('SIGTERM');
    const response = await pending;
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { task: { status: { state: string } } } };
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await stopped).toBe(0);
  });
});
