/**
 * The HTTP+JSON route tables (A2A 0.3 §7 for 0.3 with its `/v1` prefix, A2A 1.0 §11.3 for 1.0 with the
 * optional `/{tenant}` prefix from the proto's additional_bindings). `:subscribe` accepts GET and
 * POST (decision 0019).
 */
import type { ProtocolVersion } from '../../protocol/index.js';
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
  params: readonly ('taskId' | 'configId')[];
}

const SEG = '([^/]+)';
const TASK = '([^/:]+)';

function table(prefix: string): Route[] {
  const r = (
    methods: string[],
    path: string,
    operation: OperationName,
    params: Route['params'] = [],
  ): Route => ({
    methods,
    pattern: new RegExp(`^${prefix}${path}$`),
    operation,
    params,
  });
  return [
    r(['POST'], '/message:send', 'sendMessage'),
    r(['POST'], '/message:stream', 'sendStreamingMessage'),
    r(['GET'], '/tasks', 'listTasks'),
    r(['POST'], `/tasks/${TASK}:cancel`, 'cancelTask', ['taskId']),
    r(['GET', 'POST'], `/tasks/${TASK}:subscribe`, 'subscribeToTask', ['taskId']),
    r(['POST'], `/tasks/${TASK}/pushNotificationConfigs`, 'createTaskPushNotificationConfig', ['taskId']),
    r(['GET'], `/tasks/${TASK}/pushNotificationConfigs`, 'listTaskPushNotificationConfigs', ['taskId']),
    r(['GET'], `/tasks/${TASK}/pushNotificationConfigs/${SEG}`, 'getTaskPushNotificationConfig', [
      'taskId',
      'configId',
    ]),
    r(['DELETE'], `/tasks/${TASK}/pushNotificationConfigs/${SEG}`, 'deleteTaskPushNotificationConfig', [
      'taskId',
      'configId',
    ]),
    r(['GET'], `/tasks/${TASK}`, 'getTask', ['taskId']),
  ];
}

// 1.0: every route also exists under `/{tenant}` (A2A 1.0 §9.5).
const V1_0: Route[] = [
  ...table(''),
  { methods: ['GET'], pattern: /^\/extendedAgentCard$/, operation: 'getExtendedAgentCard', params: [] },
];
const V1_0_TENANT: Route[] = [
  ...table(`/${SEG}`),
  {
    methods: ['GET'],
    pattern: new RegExp(`^/${SEG}/extendedAgentCard$`),
    operation: 'getExtendedAgentCard',
    params: [],
  },
];
// 0.3: the `/v1` prefix of the 0.3 proto's HTTP annotations; the extended card is `/v1/card`.
const V0_3: Route[] = [
  ...table('/v1'),
  { methods: ['GET'], pattern: /^\/v1\/card$/, operation: 'getExtendedAgentCard', params: [] },
];

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
  if (version === '0.3') return tryRoutes(V0_3, method, path, false);
  return tryRoutes(V1_0, method, path, false) ?? tryRoutes(V1_0_TENANT, method, path, true);
}
