/**
 * One call's cancellation: the caller's AbortSignal and the call's timeout folded into one signal,
 * remembering which of the two fired so the failure is reported as ABORTED or TIMEOUT (decision 0019:
 * timeouts and AbortSignal everywhere).
 */
import { A2ALocalError } from '../client-errors.js';

/** A signal that fires on the caller's abort or when `timeoutMs` elapses. */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timedOut = false;
  private readonly onAbort = (): void => this.controller.abort();

  constructor(
    private readonly parent: AbortSignal | undefined,
    private readonly timeoutMs: number | undefined,
  ) {
    if (parent !== undefined) {
      if (parent.aborted) this.controller.abort();
      else parent.addEventListener('abort', this.onAbort, { once: true });
    }
    if (timeoutMs !== undefined && timeoutMs > 0 && !this.controller.signal.aborted) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort();
      }, timeoutMs);
    }
  }

  /** The combined signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once either source fired. */
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** The error that describes why the signal fired. */
  error(what: string): A2ALocalError {
    if (this.timedOut) {
      return new A2ALocalError('TIMEOUT', `${what} timed out after ${this.timeoutMs} ms`);
    }
    return new A2ALocalError('ABORTED', `${what} was aborted`, { cause: this.parent?.reason });
  }

  /** Stops the timer but keeps following the caller's signal (a stream that has started). */
  stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Releases the timer and the listener on the caller's signal. */
  dispose(): void {
    this.stopTimer();
    this.parent?.removeEventListener('abort', this.onAbort);
  }
}
