/**
 * Small pieces every page uses: a load state, an error notice that reads out the server's
 * explanation, JSON shown as text, time stamps and task states in words.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/http';

/** Loads `load()` when `deps` change; `reload` runs it again. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { value: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({
    value: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => live && setState({ value, error: undefined, loading: false }),
      (error: unknown) => live && setState({ value: undefined, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** An error as a notice screen readers announce. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (error === undefined) return null;
  const api = error instanceof ApiError ? error : undefined;
  return (
    <div class="notice error" role="alert">
      <p>
        {api?.code !== undefined ? <strong>{api.code}: </strong> : null}
        {error instanceof Error ? error.message : String(error)}
      </p>
      {api !== undefined && api.violations.length > 0 ? (
        <ul>
          {api.violations.map((v) => (
            <li key={v.field}>
              <code>{v.field === '' ? '/' : v.field}</code> {v.description}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Shows a load: a status line while loading, the error when it failed, else the children. */
export function Loaded<T>({
  state,
  children,
  what,
}: {
  state: { value: T | undefined; error: unknown; loading: boolean };
  children: (value: T) => ComponentChildren;
  what: string;
}) {
  if (state.error !== undefined) return <ErrorNotice error={state.error} />;
  if (state.value === undefined)
    return (
      <p class="muted" role="status">
        Loading {what}…
      </p>
    );
  return <>{children(state.value)}</>;
}

/** JSON as indented text. */
export function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <pre class="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** `TASK_STATE_INPUT_REQUIRED` as `input required`. */
export function stateName(state: string | undefined): string {
  if (state === undefined) return 'unknown';
  return state
    .replace(/^TASK_STATE_/, '')
    .replace(/_/g, ' ')
    .toLowerCase();
}

/** A task state as a badge; the word is the text, the colour only adds to it. */
export function StateBadge({ state }: { state: string | undefined }) {
  const name = stateName(state);
  return <span class={`badge state-${name.replace(/ /g, '-')}`}>{name}</span>;
}

/** An RFC 3339 time in the reader's locale, the exact value in a tooltip. */
export function Time({ value }: { value: string | undefined }) {
  if (value === undefined) return <span class="muted">—</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={value}>
      {Number.isNaN(date.getTime()) ? value : date.toLocaleString()}
    </time>
  );
}
