/**
 * Interop matrix (decision 0047), SDK to Concord: every client row of the official SDK (`@a2a-js/sdk`
 * 1.3 on JSON-RPC, HTTP+JSON and gRPC, in 1.0 and its 0.3 compatibility mode; the 0.3.x line on
 * its three transports) runs every operation against `concord serve` (the built CLI, default
 * SQLite store, gRPC on) over real sockets. sdk-matrix-sdk-server.test.ts runs the same cells
 * against the SDK's own server: what works SDK-to-SDK must work SDK-to-Concord.
 */
import { runMatrix } from './matrix/run-matrix.js';
import { SDK_CLIENTS } from './matrix/sdk-drivers.js';
import { startConcordServe } from './matrix/servers.js';

runMatrix('SDK client -> concord serve', SDK_CLIENTS, startConcordServe);
