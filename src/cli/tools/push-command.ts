/**
 * `concord push dead-letters [--data-dir DIR] [--agent ID] [--json]` and `concord push requeue
 * <id> [--data-dir DIR] [--agent ID]`: the operator's view of push deliveries that were given up
 * (decision 0087). It reads the SQLite task stores under the data directory — `tasks.db` of a
 * served code agent, `<agent-id>.db` of each host agent — and works while the server runs (WAL);
 * a requeued delivery is picked up by the running server within its poll interval.
 * With `--store postgres` it reads the PostgreSQL schema `concord serve --store postgres` uses
 * (`--database-url` or $CONCORD_DATABASE_URL, `--database-schema`; with `--agent`, that host
 * agent's schema, decision 0100).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { agentSchema, databaseUrlOf, DEFAULT_DATABASE_SCHEMA } from '../../host/internal.js';
import type { PushDeadLetter, TaskStore } from '../../store/index.js';
import { openSqliteTaskStore } from '../../store/sqlite/index.js';
import { UsageError } from '../exit-codes.js';
import { loadPeer } from '../../peers/index.js';

/** Usage text of `push`. */
export const PUSH_USAGE = `Usage: concord push dead-letters [--data-dir DIR] [--agent ID] [--json]
       concord push requeue <dead-letter-id> [--data-dir DIR] [--agent ID]
       (either with --store postgres [--database-url URL] [--database-schema S] instead of --data-dir)

  Push deliveries given up after their last attempt, kept in the task stores under --data-dir
  (default ./.concord), or in PostgreSQL with --store postgres (URL from --database-url or
  $CONCORD_DATABASE_URL); --agent picks a host agent's store. requeue puts one back in the outbox.`;

type Out = (line: string) => void;

/** One task store to read: a SQLite file, or a PostgreSQL schema. */
interface StoreSource {
  /** The host agent id, or undefined for a code agent's store. */
  agent: string | undefined;
  open(): Promise<TaskStore>;
}

/** The task store files under `dir` (or the one of `agent`). */
function storeFiles(dir: string, agent: string | undefined): StoreSource[] {
  if (!existsSync(dir)) throw new UsageError(`--data-dir: ${dir} does not exist`);
  const source = (agentId: string | undefined, path: string): StoreSource => ({
    agent: agentId,
    open: () => Promise.resolve(openSqliteTaskStore({ path })),
  });
  if (agent !== undefined) {
    const path = join(dir, `${encodeURIComponent(agent)}.db`);
    if (!existsSync(path)) throw new UsageError(`--agent: no task store for agent "${agent}" at ${path}`);
    return [source(agent, path)];
  }
  return readdirSync(dir)
    .filter((name) => name.endsWith('.db'))
    .sort()
    .map((name) =>
      source(name === 'tasks.db' ? undefined : decodeURIComponent(name.slice(0, -3)), join(dir, name)),
    );
}

/** The PostgreSQL schema of a served agent, or of one host agent (no migration: read as it is). */
function postgresSource(url: string, schema: string, agent: string | undefined): StoreSource {
  return {
    agent,
    open: async () => {
      // Loaded only here: other uses of the command never load `pg`.
      const { openPostgresStore } = await loadPeer('postgres', () => import('../../store/postgres/index.js'));
      return openPostgresStore({
        connectionString: url,
        schema: agent === undefined ? schema : agentSchema(schema, agent),
        migrate: false,
      });
    },
  };
}

async function deadLettersOf(file: StoreSource): Promise<PushDeadLetter[]> {
  const store = await file.open();
  try {
    const all: PushDeadLetter[] = [];
    let pageToken = '';
    do {
      const page = await store.push!.listDeadLetters({ pageSize: 500, pageToken });
      all.push(...page.deadLetters);
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
    return all;
  } finally {
    await store.close();
  }
}

/** Runs `push`; returns the exit code. */
export async function pushCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string', default: '.concord' },
      agent: { type: 'string' },
      store: { type: 'string', default: 'sqlite' },
      'database-url': { type: 'string' },
      'database-schema': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [action, id] = positionals;
  if (values.help === true || action === undefined) {
    out(PUSH_USAGE);
    return action === undefined && values.help !== true ? 2 : 0;
  }
  let files: StoreSource[];
  if (values.store === 'postgres') {
    const url = databaseUrlOf({
      ...(values['database-url'] === undefined ? {} : { postgres: { url: values['database-url'] } }),
      env: process.env,
    });
    files = [postgresSource(url, values['database-schema'] ?? DEFAULT_DATABASE_SCHEMA, values.agent)];
  } else if (values.store === 'sqlite') {
    files = storeFiles(resolve(values['data-dir'] ?? '.concord'), values.agent);
  } else {
    throw new UsageError(`--store: expected sqlite or postgres, got ${JSON.stringify(values.store)}`);
  }
  if (action === 'dead-letters') {
    const rows: (PushDeadLetter & { agent?: string })[] = [];
    for (const file of files) {
      for (const dead of await deadLettersOf(file))
        rows.push(file.agent === undefined ? dead : { ...dead, agent: file.agent });
    }
    if (values.json === true) {
      // The summary, not the payloads: events and snapshots can be large (and are in the store).
      const summary = rows.map(({ events: _events, task: _task, ...rest }) => rest);
      out(JSON.stringify(summary, null, 2));
      return 0;
    }
    if (rows.length === 0) {
      out('No dead letters: every push delivery went out or is still being tried.');
      return 0;
    }
    for (const dead of rows) {
      const who = dead.agent === undefined ? '' : `agent ${dead.agent}, `;
      out(
        `#${dead.id}  ${dead.failedAt}  ${who}task ${dead.taskId}, config ${dead.configId}, events ${dead.firstSeq}-${dead.lastSeq}`,
      );
      out(`    to ${dead.url} after ${dead.attempts} attempt(s): ${dead.reason}`);
    }
    out(`${rows.length} dead letter(s); \`concord push requeue <id>\` tries one again.`);
    return 0;
  }
  if (action === 'requeue') {
    const number = Number(id);
    if (id === undefined || !Number.isInteger(number) || number <= 0) {
      throw new UsageError(
        `requeue: expected a dead letter id (a positive integer), got ${JSON.stringify(id)}`,
      );
    }
    if (files.length !== 1) {
      throw new UsageError(
        `requeue: ${files.length} task stores under the data directory; pick one with --agent`,
      );
    }
    const store = await files[0]!.open();
    try {
      if (!(await store.push!.requeueDeadLetter(number)))
        throw new Error(`requeue: no dead letter #${number}`);
    } finally {
      await store.close();
    }
    out(`Dead letter #${number} is back in the outbox; the server delivers it within its poll interval.`);
    return 0;
  }
  throw new UsageError(`push: unknown action ${JSON.stringify(action)}\n\n${PUSH_USAGE}`);
}
