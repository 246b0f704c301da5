/** The echo agent with push notifications on a real socket, for the push tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createA2AServer,
  loadPushKeys,
  type A2AServer,
  type AgentExecutor,
  type PushOptions,
} from '../../../src/server/index.js';
import { listen, type RunningServer } from '../../../src/server/adapters/node.js';
import { createMemoryTaskStore, type PushStore, type TaskStore } from '../../../src/store/index.js';
import { openSqliteTaskStore } from '../../../src/store/sqlite/index.js';
import { openTestPostgresStore } from '../../helpers/postgres.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../../examples/echo/agent.mjs';

/** A running echo server with push. */
export interface PushServer {
  url: string;
  a2a: A2AServer;
  running: RunningServer;
  store: TaskStore;
  push: PushStore;
  /** The SQLite file, for the sqlite store. */
  file?: string;
  errors: unknown[];
  close(): Promise<void>;
}

/**
 * Starts the echo agent (or `executor`, under the echo card) with `push` (keys made in memory
 * unless given); retries are quick by default.
 */
export async function startPushServer(
  options: {
    store?: 'memory' | 'sqlite' | 'postgres';
    push?: Partial<PushOptions>;
    file?: string;
    executor?: AgentExecutor;
  } = {},
): Promise<PushServer> {
  let dir: string | undefined;
  let store: TaskStore;
  let file: string | undefined = options.file;
  if (file !== undefined) store = openSqliteTaskStore({ path: file });
  else if (options.store === 'postgres') store = await openTestPostgresStore();
  else if (options.store === 'sqlite') {
    dir = mkdtempSync(join(tmpdir(), 'concord-push-it-'));
    file = join(dir, 'tasks.db');
    store = openSqliteTaskStore({ path: file });
  } else {
    store = createMemoryTaskStore();
  }
  // Beside a given file, keys are kept (a restart opens what it sealed); otherwise made for the test.
  const keys = await loadPushKeys({
    env: {},
    ...(options.file === undefined ? {} : { dir: dirname(options.file) }),
  });
  const errors: unknown[] = [];
  const server = createA2AServer({
    agentCard: echo.agentCard,
    executor: options.executor ?? echo.executor,
    store,
    onError: (error) => errors.push(error),
    push: {
      ...keys,
      allow: ['127.0.0.1'],
      retry: { initialDelayMs: 50, maxDelayMs: 200, maxAttempts: 50 },
      timeoutMs: 2000,
      pollIntervalMs: 200,
      ...options.push,
    },
  });
  const running = await listen(server, { port: 0 });
  return {
    url: running.url,
    a2a: server,
    running,
    store,
    push: store.push!,
    ...(file === undefined ? {} : { file }),
    errors,
    async close() {
      await running.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POSTs a JSON-RPC call and returns the parsed body. */
export async function rpc(
  url: string,
  method: string,
  params: unknown,
  version: '0.3' | '1.0' = '1.0',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(version === '1.0' ? { 'a2a-version': '1.0' } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A 1.0 user message. */
export function message(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** Polls `check` until it returns a value (or throws after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
