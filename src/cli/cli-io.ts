/**
 * Where the calling commands write: stdout for results (human view or NDJSON), stderr for
 * diagnostics. Kept behind an interface so the commands stay free of `process` and the live view
 * knows whether it may redraw a progress line (only on a terminal).
 */

import { redact } from './redaction.js';

/** Output of a command. */
export interface CliIo {
  /** Writes text to stdout as is (no newline added). */
  write(text: string): void;
  /** Writes one line to stderr. */
  err(line: string): void;
  /** True when stdout is a terminal: the live view then redraws a progress line and uses colour. */
  readonly tty: boolean;
  /** Colour allowed (a terminal, and NO_COLOR unset). */
  readonly color: boolean;
}

/** The process's stdout and stderr; stderr lines are redacted of credentials (redaction.ts). */
export function processIo(): CliIo {
  const tty = process.stdout.isTTY === true;
  return {
    write: (text) => {
      process.stdout.write(text);
    },
    err: (line) => {
      process.stderr.write(`${redact(line)}\n`);
    },
    tty,
    color: tty && (process.env.NO_COLOR ?? '') === '',
  };
}
