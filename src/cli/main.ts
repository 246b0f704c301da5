#!/usr/bin/env node
/** The `concord` command: argument parsing and dispatch only (house rule: the CLI uses public entries). */
import { readFileSync } from 'node:fs';
import { approvalsCommand, APPROVALS_USAGE } from './tools/approvals-command.js';
import { authCommand } from './auth/auth-command.js';
import { aumpCommand } from './tools/aump-command.js';
import { cancelCommand } from './calls/cancel-command.js';
import { cardCommand, CARD_USAGE } from './tools/card-command.js';
import { cardGetCommand } from './calls/card-get-command.js';
import { completionCommand } from './calls/completion-command.js';
import { configCommand } from './config/config-command.js';
import { checkCommand } from './tools/check-command.js';
import { processIo } from './cli-io.js';
import { redact } from './redaction.js';
import { contractsCommand, CONTRACTS_USAGE } from './tools/contracts-command.js';
import { dbCommand, DB_USAGE } from './tools/db-command.js';
import { discoverCommand } from './calls/discover-command.js';
import { EXIT, EXIT_CODES_USAGE, isUsageError, UsageError } from './exit-codes.js';
import { getCommand } from './calls/get-command.js';
import { listCommand } from './calls/list-command.js';
import { pushCommand, PUSH_USAGE } from './tools/push-command.js';
import { pushConfigCommand } from './calls/push-config-command.js';
import { sendCommand } from './calls/send-command.js';
import { serveCommand, SERVE_USAGE } from './serve/serve-command.js';
import { subscribeCommand } from './calls/subscribe-command.js';
import { taskCommand } from './calls/task-command.js';

const USAGE = `Usage: concord <command> [options]
       concord help <command>   that command's options
       concord --version        the version

Commands:
  serve <target>  serve agents over A2A (0.3 and 1.0, JSON-RPC and HTTP+JSON)
  card <target>   print and lint an agent's card (--extended: the extended one); card verify
                  checks its signature
  contracts ...   list an agent's typed message contracts, or the deprecated ones
  approvals ...   list, approve or reject messages held for a requiresApproval contract
  push ...        push deliveries given up (dead letters), and requeueing one
  db migrate      apply pending PostgreSQL schema migrations (--store postgres)
  check <url>     check a live agent against the A2A conformance checklist (--help)
  aump evidence   print and verify the AUMP evidence chain of a mandate (aump --help)

Calling agents, as the A2A CLI specification names them (concord help <command> for each;
the agent is -a/--agent-card <host|url|card.json>):
  card get              print an agent's card (--validate, --extended)
  send [text]           send a message; waits for the task (--async: not), --stream: live
  task get <taskId>     print a task
  task list             list tasks (A2A 1.0)
  task cancel <taskId>  cancel a task
  task subscribe <id>   follow a running task
  task push-config ...  create, get, list or delete a task's push-notification configs
  task download <id>    save a task's artifacts to files
  discover <origin>     list the agents an origin serves (its AI Catalog); --agent <id>
                        on the commands above calls one of them through that origin
  auth login <url>      log in to an agent whose card asks for OAuth 2.0 (a person: device
                        flow; --client-secret: client credentials); the calls above then use
                        it. auth status shows the logins, auth logout forgets one
  config show           the settings the commands above use and where each came from
                        (flags, A2ACLI_* variables, .env files), and the stored logins
  completion <shell>    a completion script for bash, zsh or fish
The earlier forms still work: send <url> [text], get <url> <taskId>, list <url>,
cancel <url> <taskId>, subscribe <url> <id>, push-config <action> <url> ...

${SERVE_USAGE}

${CARD_USAGE}

${CONTRACTS_USAGE}

${APPROVALS_USAGE}

${PUSH_USAGE}

${DB_USAGE}

${EXIT_CODES_USAGE}`;

type Command = (args: string[]) => Promise<number>;

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const err = (line: string): void => {
  process.stderr.write(`${redact(line)}\n`);
};

/** Every command, by name; each prints its own help for `--help` (and `concord help <command>`). */
const COMMANDS: Record<string, Command> = {
  serve: (args) => serveCommand(args, out),
  // `card get` is a2a-cli's calling command; the rest of `card` lints and verifies (card-command.ts).
  card: (args) =>
    args[0] === 'get' ? cardGetCommand(args.slice(1), processIo()) : cardCommand(args, out, err),
  contracts: (args) => contractsCommand(args, out),
  approvals: (args) => approvalsCommand(args, out, err),
  push: (args) => pushCommand(args, out),
  db: (args) => dbCommand(args, out),
  check: (args) => checkCommand(args, out),
  aump: (args) => aumpCommand(args, out, err),
  discover: (args) => discoverCommand(args, processIo()),
  send: (args) => sendCommand(args, processIo()),
  get: (args) => getCommand(args, processIo()),
  list: (args) => listCommand(args, processIo()),
  cancel: (args) => cancelCommand(args, processIo()),
  subscribe: (args) => subscribeCommand(args, processIo()),
  'push-config': (args) => pushConfigCommand(args, processIo()),
  task: (args) => taskCommand(args, processIo()),
  auth: (args) => authCommand(args, processIo()),
  config: (args) => configCommand(args, processIo()),
  completion: (args) => completionCommand(args, processIo(), Object.keys(COMMANDS)),
};

/** Commands with subcommands, whose own help `concord help <command> <subcommand>` shows. */
const GROUPS = new Set(['task', 'card', 'auth', 'config']);

/** The package's version, read from its package.json (dist/cli/ and src/cli/ are two levels down). */
function version(): string {
  const json = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return json.version;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case '--version':
    case '-v':
    case 'version':
      out(`concord ${version()}`);
      return EXIT.OK;
    case '--help':
    case '-h':
      out(USAGE);
      return EXIT.OK;
    case 'help': {
      // `concord help <command>` is that command's own --help (a2a-cli SPEC §5.1).
      const [topic, ...extra] = rest;
      if (topic === undefined || (topic === 'help' && extra.length === 0)) {
        out(USAGE);
        return EXIT.OK;
      }
      if (extra.length === 1 && GROUPS.has(topic)) return COMMANDS[topic]!([extra[0]!, '--help']);
      if (extra.length > 0 || !Object.hasOwn(COMMANDS, topic))
        throw new UsageError(
          `help: no command ${JSON.stringify([topic, ...extra].join(' '))}; commands: ${Object.keys(COMMANDS).join(', ')}`,
        );
      return COMMANDS[topic]!(['--help']);
    }
    case undefined:
      err(USAGE);
      return EXIT.USAGE;
    default:
      if (!Object.hasOwn(COMMANDS, command))
        throw new UsageError(
          `unknown command ${JSON.stringify(command)}; commands: ${Object.keys(COMMANDS).join(', ')} (concord --help)`,
        );
      return COMMANDS[command]!(rest);
  }
}

main(process.argv.slice(2)).then(
  // Exit once stdout has taken everything (a pipe may still hold NDJSON lines).
  (code) => process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    // One exit code for every mistake in the command line, whatever its kind (decision 0038).
    process.stderr.write(`concord: ${redact(error instanceof Error ? error.message : String(error))}\n`);
    process.exit(isUsageError(error) ? EXIT.USAGE : EXIT.FAILURE);
  },
);
