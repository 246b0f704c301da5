/**
 * `concord serve <agent> [--port N] [--host H] [--data-dir DIR] [--store sqlite|memory]`: serves
 * one agent on the embedded SQLite store (default) and stops cleanly on SIGTERM / SIGINT.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createA2AServer } from '../server/index.js';
import { listen } from '../server/adapters/node.js';
import { createMemoryTaskStore, type TaskStore } from '../store/index.js';
import { openSqliteTaskStore } from '../store/sqlite/index.js';
import { loadAgent } from './load-agent.js';

/** Usage text of `serve`. */
export const SERVE_USAGE = `Usage: concord serve <agent-dir|agent-module> [options]

Options:
  --port <n>         port to listen on (default 4000; 0 picks a free port)
  --host <addr>      address to bind (default 127.0.0.1)
  --data-dir <dir>   where the SQLite task store lives (default ./.concord)
  --store <kind>     sqlite (default, durable) or memory
  --help             show this help`;

/** Runs `serve`; resolves when the server has stopped. */
export async function serveCommand(args: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string', default: '.concord' },
      store: { type: 'string', default: 'sqlite' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help === true) {
    out(SERVE_USAGE);
    return 0;
  }
  const target = positionals[0];
  if (target === undefined) throw new Error(`missing the agent to serve\n\n${SERVE_USAGE}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: expected 0-65535, got ${values.port}`);
  if (values.store !== 'sqlite' && values.store !== 'memory')
    throw new Error(`--store: expected sqlite or memory, got ${values.store}`);

  const agent = await loadAgent(target);
  let store: TaskStore;
  let where = 'memory (not durable)';
  if (values.store === 'sqlite') {
    const dir = resolve(values['data-dir'] ?? '.concord');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'tasks.db');
    store = openSqliteTaskStore({ path });
    where = path;
  } else {
    store = createMemoryTaskStore();
  }
  const server = createA2AServer({
    agentCard: agent.agentCard,
    executor: agent.executor,
    store,
    onError: (error, place) =>
      console.error(`[concord] ${place}:`, error instanceof Error ? error.message : error),
  });
  // Handlers go in before the ready line: a supervisor may signal as soon as it sees it.
  const stopped = new Promise<void>((resolveStop) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolveStop();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  const running = await listen(server, { port, host: values.host ?? '127.0.0.1' });
  const url = running.url;
  out(`Concord is serving "${agent.agentCard.name}" at ${url}`);
  out(`  task store: ${where}`);
  out(`  agent card: ${url}.well-known/agent-card.json`);
  out('  try it:');
  out(
    `  curl -s ${url} -H 'content-type: application/json' -H 'A2A-Version: 1.0' -d '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hello"}]}}}'`,
  );

  await stopped;
  out('Concord is stopping: finishing in-flight requests');
  await running.close();
  out('Concord stopped');
  return 0;
}
