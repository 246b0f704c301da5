/**
 * Internal entry of the server layer (and its Node adapter, `concord-a2a/server/node`) (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { defaultInterfaces, JWKS_PATH } from './a2a-server.js';
export { RequestHandler, type RequestHandlerOptions, type EventStream } from './request-handler.js';
export { type StreamItem } from './task-run/task-streams.js';
export { EventHub } from './task-run/event-hub.js';
export { type RefusedRequest } from './http/http-types.js';
export { isStreamResponse, requestBelow } from './http/http-types.js';
export { FORWARDING_VARY, publicFront, type PublicFrontOptions } from './http/forwarded.js';
export { servedCard, servedCardJson, type CardJsonOptions, type ServedFacts } from './cards/served-card.js';
export { cacheableJson, etagOf } from './http/cacheable-json.js';
export { authenticateChallenge } from './http/call-setup.js';
export { CONTRACT_METADATA_KEY, type OutputViolation } from './contracts/contract-gate.js';
export { DEFAULT_PUSH_RETRY } from './push/push-notifications.js';
export { SECRET_KEY_ENV, SECRET_KEY_FILE, SIGNING_KEY_FILE } from './push/push-keys.js';
export { parseSecretKey } from './push/secret-box.js';
export { MAX_PUSH_CONFIGS_PER_TASK } from './push/push-configs.js';
export { pushAllowProblem } from './push/webhook-guard.js';
export {
  isClusterMessage,
  deliverPayload,
  type CancelMessage,
  type CommittedMessage,
  type Runner,
  type RunRecord,
} from './cluster/cluster-bus.js';
export { createMemoryBusNetwork, MemoryBusNetwork } from './cluster/memory-bus.js';
export { stoppedInstanceText } from './cluster/orphan-sweeper.js';
export { STOPPED_SERVER_TEXT } from './task-run/restart-recovery.js';
export { ConnectionGuard, defaultMaxConnections } from './adapters/connection-guard.js';
export { toHttpRequest, writeResponse, type StreamRegistry } from './adapters/node-exchange.js';
export { publicBaseUrl, REQUEST_TIMEOUT_MS } from './adapters/listen-settings.js';
