/**
 * The HTTP+JSON routes of A2A, written once: per version, each operation's HTTP method and path
 * template. The server compiles them into its matcher (src/server/http/rest-routes.ts) and the
 * client fills them into URLs (src/client/transports/rest-binding.ts), so the two cannot drift.
 * 1.0 serves at the interface URL and again under an optional `/{tenant}` prefix (the proto's
 * additional_bindings, A2A 1.0 §4.4.6 `tenant` and §11.3); 0.3 under `/v1` (its proto's HTTP annotations,
 * A2A 0.3 §7). Each table is a record over `OperationName`: a new operation is a compile error
 * here until it has a route.
 */
import type { ProtocolVersion } from './codec.js';
import type { OperationName } from './operation-names.js';

/** The HTTP methods A2A routes use. */
export type RestMethod = 'GET' | 'POST' | 'DELETE';

/** The path parameters a template names; each stands for one path segment. */
export type RestPathParam = 'taskId' | 'configId';

/** One operation's route. */
export interface RestRoute {
  /** The method a client sends. */
  readonly method: RestMethod;
  /** Methods a server accepts besides `method` (`:subscribe` takes GET and POST, decision 0019). */
  readonly alsoAccepted?: readonly RestMethod[];
  /**
   * The path after the version's prefix, with `{taskId}` and `{configId}` for path parameters;
   * custom verbs follow a colon (`/tasks/{taskId}:cancel`, AIP-136).
   */
  readonly path: string;
}

/** One version's routes. */
export interface RestRouteTable {
  /** Prefix of every path (`/v1` in 0.3, none in 1.0). */
  readonly prefix: string;
  /** Whether every route also exists under `/{tenant}` after the prefix (A2A 1.0 §4.4.6 `tenant`). */
  readonly tenantPrefix: boolean;
  /** The routes, in the order a server tries them (their patterns do not overlap). */
  readonly routes: Readonly<Record<OperationName, RestRoute>>;
}

/** The routes both versions share but for `:subscribe`'s method and the extended card's path. */
function routes(subscribe: RestMethod, extendedCard: string): Record<OperationName, RestRoute> {
  const config = '/tasks/{taskId}/pushNotificationConfigs';
  return {
    sendMessage: { method: 'POST', path: '/message:send' },
    sendStreamingMessage: { method: 'POST', path: '/message:stream' },
    listTasks: { method: 'GET', path: '/tasks' },
    cancelTask: { method: 'POST', path: '/tasks/{taskId}:cancel' },
    subscribeToTask: {
      method: subscribe,
      alsoAccepted: [subscribe === 'POST' ? 'GET' : 'POST'],
      path: '/tasks/{taskId}:subscribe',
    },
    createTaskPushNotificationConfig: { method: 'POST', path: config },
    listTaskPushNotificationConfigs: { method: 'GET', path: config },
    getTaskPushNotificationConfig: { method: 'GET', path: `${config}/{configId}` },
    deleteTaskPushNotificationConfig: { method: 'DELETE', path: `${config}/{configId}` },
    getTask: { method: 'GET', path: '/tasks/{taskId}' },
    getExtendedAgentCard: { method: 'GET', path: extendedCard },
  };
}

/**
 * The route tables. A client sends `:subscribe` as POST in 1.0 (A2A 1.0 §11.3) and as GET in 0.3
 * (the 0.3 proto, and what a2a-python 0.3 accepts); the 0.3 extended card is `/v1/card`.
 */
export const REST_ROUTES: Readonly<Record<ProtocolVersion, RestRouteTable>> = {
  '0.3': { prefix: '/v1', tenantPrefix: false, routes: routes('GET', '/card') },
  '1.0': { prefix: '', tenantPrefix: true, routes: routes('POST', '/extendedAgentCard') },
};
