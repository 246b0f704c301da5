/**
 * The console's places, in the URL's fragment (`#/tasks/echo/<task id>`), so every view can be
 * linked to, reloaded and reached with the browser's back button, and the host serves one page.
 */
import { useEffect, useState } from 'preact/hooks';

/** A parsed fragment: the page name, its path segments after it, and its query. */
export interface Route {
  page: string;
  params: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => decodeURIComponent(s));
  return { page: segments[0] ?? 'agents', params: segments.slice(1), query: new URLSearchParams(search) };
}

/** The fragment of a place: `href('tasks', agent, taskId)`, with an optional query. */
export function href(page: string, ...rest: (string | Record<string, string | undefined>)[]): string {
  const params = rest.filter((r): r is string => typeof r === 'string');
  const query = rest.find((r): r is Record<string, string | undefined> => typeof r === 'object');
  const path = [page, ...params].map((s) => encodeURIComponent(s)).join('/');
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== '') search.set(key, value);
  const text = search.toString();
  return `#/${path}${text === '' ? '' : `?${text}`}`;
}

/** The current route, updated as the fragment changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
