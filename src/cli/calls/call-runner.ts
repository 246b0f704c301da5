/**
 * Runs one calling command: Ctrl-C aborts the call instead of killing the process mid-write, and
 * every failure becomes the error envelope of a2a-cli SPEC Appendix B and its exit code
 * (exit-codes.ts, decision 0169). With `-o json` the envelope is the one document on stdout (or
 * the last JSON Lines line under `--stream`), so stdout carries only the payload; the readable
 * line and the hint go to stderr in every mode.
 */
import type { CliIo } from '../cli-io.js';
import { redact } from '../redaction.js';
import { configuredOutput } from '../config/cli-settings.js';
import {
  A2ACLI_ERR,
  CONCORD_ERR,
  describeFailure,
  EXIT,
  type ErrorEnvelope,
  type FailureContext,
} from '../exit-codes.js';

/**
 * What a command's body gets: the signal that Ctrl-C or the `--timeout` deadline fires, and the
 * facts a failure is told with.
 */
export interface CallContext {
  signal: AbortSignal;
  /** Filled in by the command as it learns them (credentials given, a hint for its failures). */
  facts: FailureContext;
  /**
   * Starts the overall deadline (`--timeout`, SPEC §7.3): when it passes, the signal fires and
   * the command ends with A2ACLI_ERR_TIMEOUT, exit 5. `text` is the duration as given.
   */
  startDeadline(ms: number, text: string): void;
}

/**
 * True when the command's output is json: `-o json` (or the `--json` alias) in the arguments, or,
 * when they name no format, `A2ACLI_OUTPUT` from the environment or a `.env` file
 * (config/cli-settings.ts). Read before parsing, so a failure of the parse itself is told alike.
 */
export function wantsJson(args: readonly string[]): boolean {
  let config: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === '--json' || arg === '-ojson' || arg === '--output=json') return true;
    if ((arg === '-o' || arg === '--output') && args[i + 1] !== undefined) return args[i + 1] === 'json';
    if (arg.startsWith('-o') || arg.startsWith('--output=')) return false;
    if (arg === '--config') config = args[i + 1];
    if (arg.startsWith('--config=')) config = arg.slice('--config='.length);
  }
  return configuredOutput(config) === 'json';
}

/** Writes a failure: the envelope on stdout in json mode, the line and hint on stderr always. */
export function reportFailure(
  io: CliIo,
  command: string,
  json: boolean,
  line: string,
  envelope: ErrorEnvelope,
): void {
  // Diagnostics never carry a credential, the envelope included (SPEC §10.1).
  const error = {
    ...envelope.error,
    message: redact(envelope.error.message),
    hint: envelope.error.hint === null ? null : redact(envelope.error.hint),
  };
  if (json) io.write(`${JSON.stringify({ error })}\n`);
  io.err(redact(`concord ${command}: ${line}`));
  if (error.hint !== null) io.err(`hint: ${error.hint}`);
}

/**
 * Runs `body`; returns its exit code, or the failure's. `resume` may name, after an
 * interruption, how to pick the task up again; `until` says what `--timeout` did not wait for.
 */
export async function runCall(
  io: CliIo,
  command: string,
  args: readonly string[],
  body: (context: CallContext) => Promise<number>,
  resume?: () => string | undefined,
  until = 'the task reached a terminal or interrupted state',
): Promise<number> {
  const json = wantsJson(args);
  const interrupt = new AbortController();
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let timeoutText = '';
  const onSigint = (): void => interrupt.abort();
  process.on('SIGINT', onSigint);
  const context: CallContext = {
    signal: AbortSignal.any([interrupt.signal, deadline.signal]),
    facts: {},
    startDeadline(ms, text) {
      timeoutText = text;
      timer = setTimeout(() => deadline.abort(), ms);
    },
  };
  try {
    return await body(context);
  } catch (error) {
    if (deadline.signal.aborted && !interrupt.signal.aborted) {
      const hint = resume?.() ?? null;
      const message = `--timeout ${timeoutText} expired before ${until}`;
      reportFailure(io, command, json, `${A2ACLI_ERR.TIMEOUT}: ${message}`, {
        error: { code: A2ACLI_ERR.TIMEOUT, message, hint, a2aCode: null },
      });
      return EXIT.TIMEOUT;
    }
    if (interrupt.signal.aborted) {
      const hint = resume?.() ?? null;
      reportFailure(io, command, json, 'interrupted', {
        error: { code: CONCORD_ERR.INTERRUPTED, message: 'interrupted', hint, a2aCode: null },
      });
      return EXIT.INTERRUPTED;
    }
    const failure = describeFailure(error, context.facts);
    reportFailure(io, command, json, failure.line, failure.envelope);
    return failure.code;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    process.off('SIGINT', onSigint);
  }
}
