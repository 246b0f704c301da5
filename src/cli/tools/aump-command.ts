/**
 * `concord aump evidence <mandate-id> [--data-dir DIR] [--agent ID] [--mandate FILE] [--json]`:
 * prints the AUMP evidence chain of a mandate as the host keeps it (each agent's SQLite store
 * under the data directory) and verifies it — numbering from 1 without gaps, every event's own
 * hash, every link to the event before, one mandate throughout, and, with `--mandate`, that
 * mandate document's id and hash (decision 0057). The head hash is printed so it can be compared
 * with a copy kept elsewhere: a chain alone cannot show that its last event was dropped.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  loadMandateFile,
  verifyEvidenceChain,
  type EvidenceEvent,
  type Mandate,
} from '../../extensions/aump/index.js';
import { SqliteTaskStore } from '../../store/sqlite/index.js';
import { UsageError } from '../exit-codes.js';

/** Usage text of `aump`. */
export const AUMP_USAGE = `Usage: concord aump evidence <mandate-id> [options]

Prints and verifies the AUMP evidence chain of a mandate kept by \`concord serve\`.

Options:
  --data-dir <dir>   where the agents' SQLite stores live (default ./.concord)
  --agent <id>       read only this agent's store
  --mandate <file>   also check the chain against this mandate document (id and hash)
  --json             print {store, mandate, events, verification} per store as JSON lines

Exit codes: 0 every chain found verifies; 1 a chain is broken, or there is none; 2 bad arguments.`;

type Out = (line: string) => void;

/** The store files to read: one agent's, or every `*.db` of the data directory. */
function storeFiles(dataDir: string, agent: string | undefined): string[] {
  if (!existsSync(dataDir)) throw new UsageError(`--data-dir: ${dataDir} does not exist`);
  if (agent !== undefined) {
    const file = join(dataDir, `${encodeURIComponent(agent)}.db`);
    if (!existsSync(file)) throw new UsageError(`--agent: no store for agent "${agent}" in ${dataDir}`);
    return [file];
  }
  return readdirSync(dataDir)
    .filter((name) => name.endsWith('.db'))
    .sort()
    .map((name) => join(dataDir, name));
}

function eventLine(event: EvidenceEvent): string {
  const a2a = (event.downstream_refs ?? [])
    .filter((ref) => ref.protocol === 'a2a')
    .map((ref) => ` a2a:${ref.id}`);
  const reasons = (event.reason_codes ?? []).length > 0 ? ` [${event.reason_codes!.join(', ')}]` : '';
  return `  #${event.sequence} ${event.created_at} ${event.event_type} ${event.result}${reasons}${a2a.join('')} - ${event.summary}`;
}

/** Runs `aump`; returns the exit code. */
export async function aumpCommand(args: string[], out: Out, err: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string', default: '.concord' },
      agent: { type: 'string' },
      mandate: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [action, mandateId] = positionals;
  if (values.help === true) {
    out(AUMP_USAGE);
    return 0;
  }
  if (action !== 'evidence') {
    err(
      action === undefined
        ? AUMP_USAGE
        : `concord aump: unknown action ${JSON.stringify(action)}\n\n${AUMP_USAGE}`,
    );
    return 2;
  }
  if (mandateId === undefined || mandateId === '') {
    err(`concord aump evidence: missing the mandate id\n\n${AUMP_USAGE}`);
    return 2;
  }
  let mandate: Mandate | undefined;
  let files: string[];
  try {
    if (values.mandate !== undefined) mandate = await loadMandateFile(resolve(values.mandate));
    if (mandate !== undefined && mandate.id !== mandateId) {
      throw new UsageError(`--mandate: ${values.mandate} is mandate ${mandate.id}, not ${mandateId}`);
    }
    files = storeFiles(resolve(values['data-dir'] ?? '.concord'), values.agent);
  } catch (error) {
    err(`concord aump evidence: ${(error as Error).message}`);
    return 2;
  }
  let found = 0;
  let broken = 0;
  for (const file of files) {
    const store = new SqliteTaskStore({ path: file });
    let events: EvidenceEvent[];
    try {
      events = (await store.evidence.read(mandateId)).map(
        (record) => record.event as unknown as EvidenceEvent,
      );
    } finally {
      await store.close();
    }
    if (events.length === 0) continue;
    found++;
    const verification = verifyEvidenceChain(events, mandate === undefined ? {} : { mandate });
    if (!verification.valid) broken++;
    if (values.json === true) {
      out(JSON.stringify({ store: file, mandate: mandateId, events, verification }));
      continue;
    }
    out(`${file}: ${events.length} evidence event(s) for ${mandateId}`);
    for (const event of events) out(eventLine(event));
    if (verification.valid) {
      out(`  verified: ${verification.count} event(s), numbered and hash-linked; head ${verification.head}`);
    } else {
      out(`  BROKEN: ${verification.problems.length} problem(s)`);
      for (const problem of verification.problems) out(`    ${problem.code}: ${problem.message}`);
    }
  }
  if (found === 0) {
    err(
      `concord aump evidence: no evidence for ${mandateId} in ${files.length} store(s) under ${resolve(values['data-dir'] ?? '.concord')}`,
    );
    return 1;
  }
  return broken === 0 ? 0 : 1;
}
