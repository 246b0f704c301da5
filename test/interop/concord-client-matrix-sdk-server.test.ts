/**
 * Interop matrix (decision 0047), Concord to SDK: Concord's client on every binding and version runs
 * the operations table against the official SDK's server (helpers/sdk-server.ts: push store and
 * sender, extended card, gRPC) over real sockets. The same cells SDK-to-SDK are in
 * sdk-matrix-sdk-server.test.ts; the CLI's are in concord-cli-matrix-sdk-server.test.ts.
 */
import { CONCORD_CLIENT_ROWS } from './matrix/concord-drivers.js';
import { runMatrix } from './matrix/run-matrix.js';
import { startSdk } from './matrix/servers.js';

runMatrix('Concord client -> SDK server', CONCORD_CLIENT_ROWS, startSdk);
