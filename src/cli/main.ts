#!/usr/bin/env node
/** The `concord` command: argument parsing and dispatch only (house rule: the CLI uses public entries). */
import { readFileSync } from 'node:fs';
import { processIo } from './cli-io.js';
import { redact } from './redaction.js';
import { EXIT, EXIT_CODES_USAGE, isUsageError, UsageError } from './exit-codes.js';

// Each command's module is imported when that command runs, not before: `concord send` has no use
// for the server, the stores or the host, and loading all of them cost every call about 0.3 s of
// start-up (467 modules for `--version`).
/** The whole help: the commands, then each command group's own usage (loaded for it). */
async function usage(): Promise<string> {
  const [
    { SERVE_USAGE },
    { CARD_USAGE },
    { CONTRACTS_USAGE },
    { APPROVALS_USAGE },
    { PUSH_USAGE },
    { DB_USAGE },
  ] = await Promise.all([
    import('./serve/serve-command.js'),
    import('./tools/card-command.js'),
    import('./tools/contracts-command.js'),
    import('./tools/approvals-command.js'),
    import('./tools/push-command.js'),
    import('./tools/db-command.js'),
  ]);
  return `Usage: concord <command> [options]
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
  conformance -a <ref>  smoke-check an agent: the A2A TCK (--tck <dir>), else Concord's checklist
The earlier forms still work: send <url> [text], get <url> <taskId>, list <url>,
cancel <url> <taskId>, subscribe <url> <id>, push-config <action> <url> ...

${SERVE_USAGE}

${CARD_USAGE}

${CONTRACTS_USAGE}

${APPROVALS_USAGE}

${PUSH_USAGE}

${DB_USAGE}

${EXIT_CODES_USAGE}`;
}

type Command = (args: string[]) => Promise<number>;

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const err = (line: string): void => {
  process.stderr.write(`${redact(line)}\n`);
};

/** Every command, by name; each prints its own help for `--help` (and `concord help <command>`). */
const COMMANDS: Record<string, Command> = {
  serve: async (args) => (await import('./serve/serve-command.js')).serveCommand(args, out),
  // `card get` is a2a-cli's calling command; the rest of `card` lints and verifies (card-command.ts).
  card: async (args) =>
    args[0] === 'get'
      ? (await import('./calls/card-get-command.js')).cardGetCommand(args.slice(1), processIo())
      : (await import('./tools/card-command.js')).cardCommand(args, out, err),
  contracts: async (args) => (await import('./tools/contracts-command.js')).contractsCommand(args, out),
  approvals: async (args) => (await import('./tools/approvals-command.js')).approvalsCommand(args, out, err),
  push: async (args) => (await import('./tools/push-command.js')).pushCommand(args, out),
  db: async (args) => (await import('./tools/db-command.js')).dbCommand(args, out),
  check: async (args) => (await import('./tools/check-command.js')).checkCommand(args, out),
  aump: async (args) => (await import('./tools/aump-command.js')).aumpCommand(args, out, err),
  discover: async (args) => (await import('./calls/discover-command.js')).discoverCommand(args, processIo()),
  send: async (args) => (await import('./calls/send-command.js')).sendCommand(args, processIo()),
  get: async (args) => (await import('./calls/get-command.js')).getCommand(args, processIo()),
  list: async (args) => (await import('./calls/list-command.js')).listCommand(args, processIo()),
  cancel: async (args) => (await import('./calls/cancel-command.js')).cancelCommand(args, processIo()),
  subscribe: async (args) =>
    (await import('./calls/subscribe-command.js')).subscribeCommand(args, processIo()),
  'push-config': async (args) =>
    (await import('./calls/push-config-command.js')).pushConfigCommand(args, processIo()),
  task: async (args) => (await import('./calls/task-command.js')).taskCommand(args, processIo()),
  auth: async (args) => (await import('./auth/auth-command.js')).authCommand(args, processIo()),
  config: async (args) => (await import('./config/config-command.js')).configCommand(args, processIo()),
  conformance: async (args) =>
    (await import('./calls/conformance-command.js')).conformanceCommand(args, processIo()),
  completion: async (args) =>
    (await import('./calls/completion-command.js')).completionCommand(
      args,
      processIo(),
      Object.keys(COMMANDS),
    ),
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
      out(await usage());
      return EXIT.OK;
    case 'help': {
      // `concord help <command>` is that command's own --help (a2a-cli SPEC §5.1).
      const [topic, ...extra] = rest;
      if (topic === undefined || (topic === 'help' && extra.length === 0)) {
        out(await usage());
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
      err(await usage());
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
