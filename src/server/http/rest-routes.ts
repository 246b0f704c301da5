/**
 * The HTTP+JSON route matcher, compiled from the protocol's route tables (src/protocol/
 * rest-routes.ts: A2A 0.3 §7 for 0.3 under `/v1`, A2A 1.0 §11.3 for 1.0 with the optional
 * `/{tenant}` prefix). `:subscribe` accepts GET and POST (decision 0019).
 */
import type { ProtocolVersion } from '../../protocol/index.js';
import { REST_ROUTES, type RestPathParam, type RestRouteTable } from '../../protocol/rest-routes.js';
import type { OperationName } from './operations.js';

/** A matched route: the operation and its path parameters. */
export interface RouteMatch {
  operation: OperationName;
  tenant: string;
  /** Task id (`{id}` or `{taskId}`). */
  taskId?: string;
  /** Push config id. */
  configId?: string;
}

interface Route {
  methods: readonly string[];
  pattern: RegExp;
  operation: OperationName;
  /** Names of the capture groups after the optional tenant, in order. */
  params: readonly RestPathParam[];
}

const SEG = '([^/]+)';
// A task id stops at the colon of a custom verb (`/tasks/{taskId}:cancel`).
const CAPTURE: Readonly<Record<RestPathParam, string>> = { taskId: '([^/:]+)', configId: SEG };

/** The table's routes as patterns, each behind `prefix` (a regex source). */
function compile(table: RestRouteTable, prefix: string): Route[] {
  return (Object.entries(table.routes) as [OperationName, RestRouteTable['routes'][OperationName]][]).map(
    ([operation, route]) => {
      const params: RestPathParam[] = [];
      const source = route.path
        .split(/(\{[a-zA-Z]+\})/)
        .map((part) => {
          const name = /^\{([a-zA-Z]+)\}$/.exec(part)?.[1] as RestPathParam | undefined;
          if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          params.push(name);
          return CAPTURE[name];
        })
        .join('');
      return {
        methods: [route.method, ...(route.alsoAccepted ?? [])],
        pattern: new RegExp(`^${prefix}${source}$`),
        operation,
        params,
      };
    },
  );
}

/** Per version: the routes at the prefix, then (1.0) the same under `/{tenant}` (A2A 1.0 §4.4.6 `tenant`). */
function matcher(table: RestRouteTable): { plain: Route[]; tenanted?: Route[] } {
  const plain = compile(table, table.prefix);
  return table.tenantPrefix ? { plain, tenanted: compile(table, `${table.prefix}/${SEG}`) } : { plain };
}
const MATCHERS = { '0.3': matcher(REST_ROUTES['0.3']), '1.0': matcher(REST_ROUTES['1.0']) };

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function tryRoutes(
  routes: Route[],
  method: string,
  path: string,
  tenanted: boolean,
): RouteMatch | 'wrong-method' | undefined {
  let wrongMethod = false;
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (m === null) continue;
    if (!route.methods.includes(method)) {
      wrongMethod = true;
      continue;
    }
    const groups = m.slice(1).map((g) => decodeSegment(g ?? ''));
    const match: RouteMatch = { operation: route.operation, tenant: tenanted ? (groups.shift() ?? '') : '' };
    route.params.forEach((name, i) => {
      match[name] = groups[i] ?? '';
    });
    return match;
  }
  return wrongMethod ? 'wrong-method' : undefined;
}

/** Finds the route for a request; `'wrong-method'` when the path exists with another method. */
export function matchRestRoute(
  version: ProtocolVersion,
  method: string,
  path: string,
): RouteMatch | 'wrong-method' | undefined {
  const { plain, tenanted } = MATCHERS[version];
  const match = tryRoutes(plain, method, path, false);
  return match !== undefined || tenanted === undefined ? match : tryRoutes(tenanted, method, path, true);
}
