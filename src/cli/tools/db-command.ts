/**
 * `concord db migrate [<target>] [--database-url URL] [--database-schema S]`: brings the PostgreSQL
 * schema up to this Concord's version (decision 0101), for deployments that migrate before they
 * roll out (and then serve with `--no-migrate`). With host definitions as the target, every
 * agent's schema is migrated; without, the one schema of `concord serve <agent-module>`.
 */
import { parseArgs } from 'node:util';
import {
  agentSchema,
  DATABASE_URL_ENV,
  databaseUrlOf,
  DEFAULT_DATABASE_SCHEMA,
  loadHost,
} from '../../host/internal.js';
import { redactDatabaseUrl } from '../../store/internal.js';
import { isAgentModule } from '../serve/load-agent.js';
import { UsageError } from '../exit-codes.js';
import { loadPeer } from '../../peers/index.js';

/** Usage text of `db`. */
export const DB_USAGE = `Usage: concord db migrate [<agents-dir|config.json5>] [--database-url URL] [--database-schema S]

  Applies pending schema migrations to the PostgreSQL store (--store postgres), under a lock, so
  it is safe while instances start. The URL defaults to $${DATABASE_URL_ENV}. Given host
  definitions, migrates the schema of each agent (<schema>_<agent>); otherwise the schema itself
  (default ${DEFAULT_DATABASE_SCHEMA}), as \`concord serve <agent-module> --store postgres\` uses it.`;

/** Runs `db`; returns the exit code. */
export async function dbCommand(args: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'database-url': { type: 'string' },
      'database-schema': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const [action, target] = positionals;
  if (values.help === true || action === undefined) {
    out(DB_USAGE);
    return values.help === true ? 0 : 2;
  }
  if (action !== 'migrate')
    throw new UsageError(`db: unknown action ${JSON.stringify(action)}\n\n${DB_USAGE}`);
  const url = databaseUrlOf({
    ...(values['database-url'] === undefined ? {} : { postgres: { url: values['database-url'] } }),
    env: process.env,
  });
  const base = values['database-schema'] ?? DEFAULT_DATABASE_SCHEMA;
  let schemas = [base];
  if (target !== undefined && !isAgentModule(target)) {
    const config = await loadHost(target, { env: process.env });
    schemas = config.agents.map((agent) => agentSchema(base, agent.id));
  }
  // Loaded only here: other commands never load `pg`.
  const { migratePostgres } = await loadPeer('postgres', () => import('../../store/postgres/index.js'));
  out(`Migrating PostgreSQL at ${redactDatabaseUrl(url)}`);
  for (const schema of schemas) {
    const { from, to } = await migratePostgres({ connectionString: url, schema });
    out(
      from === to
        ? `  ${schema}: already at version ${to}`
        : `  ${schema}: migrated from version ${from} to ${to}`,
    );
  }
  return 0;
}
