/**
 * Interop matrix (issue 22), Concord to SDK: Concord's client (every binding and version) and the
 * `concord` CLI (JSON-RPC and HTTP+JSON, both versions) run the operations table against the
 * official SDK's server (helpers/sdk-server.ts: push store and sender, extended card, gRPC) over
 * real sockets. The same cells SDK-to-SDK are in sdk-matrix-sdk-server.test.ts.
 */
import { CONCORD_CLIENTS } from './matrix/concord-drivers.js';
import { runMatrix } from './matrix/run-matrix.js';
import { startSdk } from './matrix/servers.js';

runMatrix('Concord client and CLI -> SDK server', CONCORD_CLIENTS, startSdk);
