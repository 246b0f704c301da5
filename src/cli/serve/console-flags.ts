/**
 * `concord serve`'s console flags (decision 0159): `--console` serves the Concord Console on
 * every listener, `--no-console` on none; without either it is on where the listener is bound to
 * loopback. `--console-trace-url` (or `CONCORD_CONSOLE_TRACE_URL`) is where a task's trace id
 * links to. Host only: the console reads the host's own APIs.
 */
import type { HostConsoleOptions } from '../../host/internal.js';
import { UsageError } from '../exit-codes.js';

export const CONSOLE_USAGE = `  --console             serve the Concord Console at /console/ on every listener (default: only
                        on listeners bound to loopback; host only)
  --no-console          serve no console
  --console-trace-url <u> where the console links a task's trace: a URL with {traceId} in it
                        (default: $CONCORD_CONSOLE_TRACE_URL)`;

/** The `parseArgs` options of the flags. */
export const CONSOLE_OPTIONS = {
  console: { type: 'boolean' },
  'no-console': { type: 'boolean' },
  'console-trace-url': { type: 'string' },
} as const;

/** The flags' values as `parseArgs` gives them. */
export interface ConsoleFlagValues {
  console?: boolean | undefined;
  'no-console'?: boolean | undefined;
  'console-trace-url'?: string | undefined;
}

/** The console options of the flags; `tracing` says whether the process records traces. */
export function consoleFlags(
  values: ConsoleFlagValues,
  env: NodeJS.ProcessEnv,
  tracing: boolean,
): HostConsoleOptions {
  if (values.console === true && values['no-console'] === true) {
    throw new UsageError('--console and --no-console contradict each other');
  }
  const traceUrl = values['console-trace-url'] ?? (env.CONCORD_CONSOLE_TRACE_URL || undefined);
  if (traceUrl !== undefined) {
    const flag =
      values['console-trace-url'] === undefined ? 'CONCORD_CONSOLE_TRACE_URL' : '--console-trace-url';
    let url: URL | undefined;
    try {
      url = new URL(traceUrl.replace('{traceId}', '0'));
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new UsageError(`${flag}: expected an http(s) URL, got ${traceUrl}`);
    }
    if (!traceUrl.includes('{traceId}')) {
      throw new UsageError(`${flag}: the URL must say where the trace id goes with {traceId}`);
    }
  }
  return {
    ...(values.console === true
      ? { enabled: true }
      : values['no-console'] === true
        ? { enabled: false }
        : {}),
    ...(traceUrl === undefined ? {} : { traceUrl }),
    traces: tracing,
  };
}
