/**
 * How the client reads answers (decision 0136): liberally by default, like the ecosystem's clients.
 * An unknown enum value is kept as it came, an empty REQUIRED list is kept empty, a missing
 * REQUIRED string reads as `""`, and a list item the codec cannot read is skipped, so one odd item
 * never costs the whole answer; each of these is reported to `onWarning`. What is still unreadable
 * (not JSON of the operation's shape at all) is BAD_RESPONSE. `concord check` reads strictly.
 */
import { A2AError, readLiberally, type ReadWarning } from '../../protocol/internal.js';
import { A2ALocalError } from '../client-errors.js';

/** An odd item of an answer the client read past: where (answer URL and JSON Pointer) and what. */
export interface A2AReadWarning extends ReadWarning {
  /** The URL (or gRPC target) that answered. */
  url: string;
}

/** The reading settings of a client. */
export interface AnswerReading {
  /** `strict` refuses any off-spec answer as BAD_RESPONSE (default `liberal`). */
  reading?: 'liberal' | 'strict' | undefined;
  /** Receives each warning of liberal reading; without it warnings are dropped. */
  onWarning?: ((warning: A2AReadWarning) => void) | undefined;
}

/** Decodes an answer per `settings`; a shape the codec still refuses is the agent's fault: BAD_RESPONSE. */
export function readAnswer<T>(decode: () => T, url: string, status: number, settings: AnswerReading = {}): T {
  try {
    if (settings.reading === 'strict') return decode();
    const sink = settings.onWarning;
    return readLiberally(decode, (warning) => sink?.({ url, path: warning.path, message: warning.message }));
  } catch (error) {
    if (!(error instanceof A2AError)) throw error;
    throw new A2ALocalError('BAD_RESPONSE', `${url} answered a payload the codec refuses: ${error.message}`, {
      cause: error,
      ...(status === 0 ? {} : { httpStatus: status }),
      url,
    });
  }
}
