/**
 * Interop matrix (decision 0047), the SDK-to-SDK baseline: the same client rows and operations as
 * sdk-matrix-concord-serve.test.ts against the official SDK's own server (helpers/sdk-server.ts),
 * so a cell failing against Concord but passing here is Concord's to fix, and a cell failing here
 * too is an SDK limit (decision 0047).
 */
import { runMatrix } from './matrix/run-matrix.js';
import { SDK_CLIENTS } from './matrix/sdk-drivers.js';
import { startSdk } from './matrix/servers.js';

runMatrix('SDK client -> SDK server', SDK_CLIENTS, startSdk);
