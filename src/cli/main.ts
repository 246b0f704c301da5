#!/usr/bin/env node
/** The `concord` command: argument parsing and dispatch only (house rule: the CLI uses public entries). */
import { approvalsCommand, APPROVALS_USAGE } from './approvals-command.js';
import { aumpCommand } from './aump-command.js';
import { cancelCommand } from './cancel-command.js';
import { cardCommand, CARD_USAGE } from './card-command.js';
import { checkCommand } from './check-command.js';
import { processIo } from './cli-io.js';
import { contractsCommand, CONTRACTS_USAGE } from './contracts-command.js';
import { dbCommand, DB_USAGE } from './db-command.js';
import { EXIT_CODES_USAGE } from './exit-codes.js';
import { getCommand } from './get-command.js';
import { listCommand } from './list-command.js';
import { pushCommand, PUSH_USAGE } from './push-command.js';
import { sendCommand } from './send-command.js';
import { serveCommand, SERVE_USAGE } from './serve-command.js';
import { subscribeCommand } from './subscribe-command.js';

const USAGE = `Usage: concord <command> [options]

Commands:
  serve <target>  serve agents over A2A (0.3 and 1.0, JSON-RPC and HTTP+JSON)
  card <target>   print and lint an agent's card; card verify checks its signature
  contracts ...   list an agent's typed message contracts, or the deprecated ones
  approvals ...   list, approve or reject messages held for a requiresApproval contract
  push ...        push deliveries given up (dead letters), and requeueing one
  db migrate      apply pending PostgreSQL schema migrations (--store postgres)
  check <url>     check a live agent against the A2A conformance checklist (--help)
  aump evidence   print and verify the AUMP evidence chain of a mandate (aump --help)

Calling agents (concord <command> --help for each):
  send <url> [text]     send a message; --stream shows the task live
  get <url> <taskId>    print a task
  list <url>            list tasks (A2A 1.0)
  cancel <url> <taskId> cancel a task
  subscribe <url> <id>  follow a running task

${SERVE_USAGE}

${CARD_USAGE}

${CONTRACTS_USAGE}

${APPROVALS_USAGE}

${PUSH_USAGE}

${DB_USAGE}

${EXIT_CODES_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  switch (command) {
    case 'serve':
      return serveCommand(rest, out);
    case 'contracts':
      return contractsCommand(rest, out);
    case 'check':
      return checkCommand(rest, out);
    case 'approvals':
      return approvalsCommand(rest, out, (line) => {
        process.stderr.write(`${line}\n`);
      });
    case 'aump':
      return aumpCommand(rest, out, (line) => process.stderr.write(`${line}\n`));
    case 'push':
      return pushCommand(rest, out);
    case 'db':
      return dbCommand(rest, out);
    case 'send':
      return sendCommand(rest, processIo());
    case 'get':
      return getCommand(rest, processIo());
    case 'list':
      return listCommand(rest, processIo());
    case 'cancel':
      return cancelCommand(rest, processIo());
    case 'subscribe':
      return subscribeCommand(rest, processIo());
    case 'card':
      return cardCommand(rest, out, (line) => {
        process.stderr.write(`${line}\n`);
      });
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      out(USAGE);
      return command === undefined ? 1 : 0;
    default:
      process.stderr.write(`concord: unknown command ${JSON.stringify(command)}\n\n${USAGE}\n`);
      return 1;
  }
}

main(process.argv.slice(2)).then(
  // Exit once stdout has taken everything (a pipe may still hold NDJSON lines).
  (code) => process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    process.stderr.write(`concord: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
