#!/usr/bin/env node
/** The `concord` command: argument parsing and dispatch only (house rule: the CLI uses public entries). */
import { serveCommand, SERVE_USAGE } from './serve-command.js';

const USAGE = `Usage: concord <command> [options]

Commands:
  serve <agent>   serve an agent over A2A (0.3 and 1.0, JSON-RPC and HTTP+JSON)

${SERVE_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  switch (command) {
    case 'serve':
      return serveCommand(rest, out);
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
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`concord: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
