/**
 * Runs one calling command: Ctrl-C aborts the call instead of killing the process mid-write, and
 * every failure becomes one readable line on stderr (plus, with `--json`, an `{"error": ...}`
 * record on stdout so a machine reading the stream sees why it ended) and its exit code.
 */
import type { CliIo } from '../cli-io.js';
import { describeFailure, EXIT } from '../exit-codes.js';

/** What a command's body gets: the signal Ctrl-C fires. */
export interface CallContext {
  signal: AbortSignal;
}

/**
 * Runs `body`; returns its exit code, or the failure's. `hint` may add a line after an
 * interruption (how to pick the task up again).
 */
export async function runCall(
  io: CliIo,
  command: string,
  json: boolean,
  body: (context: CallContext) => Promise<number>,
  hint?: () => string | undefined,
): Promise<number> {
  const interrupt = new AbortController();
  const onSigint = (): void => interrupt.abort();
  process.on('SIGINT', onSigint);
  try {
    return await body({ signal: interrupt.signal });
  } catch (error) {
    if (interrupt.signal.aborted) {
      const more = hint?.();
      io.err(`concord ${command}: interrupted${more === undefined ? '' : `; ${more}`}`);
      if (json) io.write(`${JSON.stringify({ error: { kind: 'INTERRUPTED', message: 'interrupted' } })}\n`);
      return EXIT.INTERRUPTED;
    }
    const failure = describeFailure(error);
    if (json) io.write(`${JSON.stringify(failure.json)}\n`);
    io.err(`concord ${command}: ${failure.line}`);
    return failure.code;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
