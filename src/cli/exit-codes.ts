/**
 * Exit codes: 2 for a usage error on every command; those of the calling commands (send, get,
 * list, cancel, subscribe, push-config; decisions 0038, 0142); and the
 * one-line description of a failure. Scripts branch on the code; people read the line, which
 * keeps the A2A code and ErrorInfo reason of an agent's error (A2A 1.0 §9.5, §11.6).
 */
import { A2AClientError, A2ALocalError } from '../client/index.js';

/** The exit codes, documented in `concord --help` and docs/guides/call-agents.md. */
export const EXIT = {
  /** The call succeeded (send/subscribe: the task completed or waits for input or auth). */
  OK: 0,
  /** Something unexpected (a bug): the message says what. */
  INTERNAL: 1,
  /**
   * Every command: a mistake in the command line, whatever its kind (unknown command or option,
   * missing argument, bad option value, `--data` that is not JSON); the a2a-cli SPEC §9.6 code.
   */
  USAGE: 2,
  /** The agent answered with an A2A error (task not found, not cancelable, unsupported...). */
  AGENT_ERROR: 3,
  /** No usable answer: network, timeout, refused target, no compatible interface, not A2A. */
  CONNECTION: 4,
  /** send/subscribe: the task ended failed, rejected or canceled. */
  TASK_FAILED: 5,
  /** Interrupted (Ctrl-C); the task goes on at the agent. */
  INTERRUPTED: 130,
} as const;

/** Usage text listing the exit codes. */
export const EXIT_CODES_USAGE = `Exit codes:
  2    every command: a mistake in the command line (unknown command or option, missing argument,
       bad option value, --data that is not JSON)
  1    every command: it failed for another reason (check: a rule failed)
Exit codes of send, get, list, cancel, subscribe, push-config (card --extended: 3 and 4 too):
  0    success (send/subscribe: the task completed, or waits for input or auth)
  3    the agent answered with an A2A error (the message names its code and reason)
  4    no usable answer: network, timeout, refused private target, no compatible interface
  5    send/subscribe: the task ended failed, rejected or canceled
  130  interrupted (Ctrl-C)`;

/** A mistake in the command line or its input; exits with USAGE. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Runs a check of a flag's value that a library function makes (and throws a plain Error for),
 * so that a bad value is a UsageError like every other (exit 2).
 */
export function asUsage<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** True for a mistake in the command line: a UsageError or node:util parseArgs's own errors. */
export function isUsageError(error: unknown): boolean {
  return error instanceof UsageError || isParseArgsError(error);
}

/** A failure as the CLI reports it: one line, an exit code, and the NDJSON record for `--json`. */
export interface DescribedFailure {
  line: string;
  code: number;
  json: Record<string, unknown>;
}

// The client's SSRF message tells library users about options; the CLI's users have a flag.
const LIBRARY_HINT = /;? ?pass allowPrivateNetworks: true or list the host in allowedHosts to allow it$/;
const MAX_RESPONSE_HINT = /\(the client's maxResponseBytes\)$/;

/** Describes any thrown value for the terminal and for machines. */
export function describeFailure(error: unknown): DescribedFailure {
  if (error instanceof A2AClientError) {
    const facts = [`code ${error.code}`];
    if (error.reason !== undefined) facts.push(error.reason);
    // JSON-RPC errors travel with HTTP 200, which says nothing; a REST status does.
    if (error.httpStatus !== 200) facts.push(`HTTP ${error.httpStatus}`);
    const json: Record<string, unknown> = {
      type: error.type,
      code: error.code,
      httpStatus: error.httpStatus,
      message: error.message,
    };
    if (error.reason !== undefined) json.reason = error.reason;
    return {
      line: `${error.type}: ${error.message} (${facts.join(', ')})`,
      code: EXIT.AGENT_ERROR,
      json: { error: json },
    };
  }
  if (error instanceof A2ALocalError) {
    let message = error.message;
    if (error.kind === 'SSRF_BLOCKED') {
      message = `${message.replace(LIBRARY_HINT, '')}; pass --allow-private to allow private targets`;
    }
    message = message.replace(MAX_RESPONSE_HINT, '(raise the limit with --max-response-bytes)');
    const json: Record<string, unknown> = { kind: error.kind, message };
    if (error.httpStatus !== undefined) json.httpStatus = error.httpStatus;
    if (error.url !== undefined) json.url = error.url;
    return { line: `${error.kind}: ${message}`, code: EXIT.CONNECTION, json: { error: json } };
  }
  if (isUsageError(error)) {
    const message = (error as Error).message;
    return { line: message, code: EXIT.USAGE, json: { error: { kind: 'USAGE', message } } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { line: message, code: EXIT.INTERNAL, json: { error: { kind: 'INTERNAL', message } } };
}

/** node:util parseArgs reports unknown options and missing values with ERR_PARSE_ARGS_* codes. */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
