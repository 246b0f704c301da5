/**
 * Internal errors reach the server's `onError` hook (decision 0144). A client that gets -32603,
 * HTTP 500 or gRPC INTERNAL learns nothing of the cause (toA2AError hides it), so the operator
 * must: every binding hands the error it answered as internal to the reporter, with where it
 * happened. An error several layers see (a failed store commit is reported by the task run, then
 * answered by the binding) reaches the hook once.
 */
import { A2AError } from '../../protocol/index.js';

/** Hands an error with no caller to see it to the server's `onError`. */
export type ErrorReporter = (error: unknown, where: string) => void;

/**
 * A reporter around `onError`: each error object once, and a hook that throws never breaks the
 * answer being written.
 */
export function createErrorReporter(
  onError: ((error: unknown, where: string) => void) | undefined,
): ErrorReporter {
  if (onError === undefined) return () => undefined;
  const reported = new WeakSet<object>();
  return (error, where) => {
    if (typeof error === 'object' && error !== null) {
      if (reported.has(error)) return;
      reported.add(error);
      // The binding may see an InternalError wrapping what the task run already reported.
      const cause = (error as { cause?: unknown }).cause;
      if (error instanceof A2AError && typeof cause === 'object' && cause !== null && reported.has(cause))
        return;
    }
    try {
      onError(error, where);
    } catch {
      // The hook's own failure has nowhere to go; the client still gets its answer.
    }
  };
}

/**
 * Reports `thrown` when a binding is about to answer it as an internal error: anything that is
 * not an A2AError, and A2AErrors of type InternalError. `where` is built only then.
 */
export function reportIfInternal(
  thrown: unknown,
  report: ErrorReporter | undefined,
  where: () => string,
): void {
  if (report === undefined) return;
  if (thrown instanceof A2AError && thrown.type !== 'InternalError') return;
  report(thrown, where());
}
