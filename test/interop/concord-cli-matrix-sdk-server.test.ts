/**
 * Interop matrix (decision 0047), Concord to SDK: the built `concord` CLI, as a process per call, on
 * JSON-RPC 1.0, HTTP+JSON 0.3 and gRPC 1.0 (`--binding`, `--a2a-version`; concord-drivers.ts says
 * why those three) runs every operation of the table (send with and without a push config,
 * send --stream, get, list, cancel, subscribe, push-config create/get/list/delete, card, card
 * --extended --token) against the official SDK's server over real sockets. Its own file, so its
 * process starts run beside the other matrices (sequentially within it: concurrent cells only
 * fought over the CPU on a loaded 2-core machine); about 45 CLI cells, 75 s here.
 */
import { CONCORD_CLI_ROWS } from './matrix/concord-drivers.js';
import { runMatrix } from './matrix/run-matrix.js';
import { startSdk } from './matrix/servers.js';

runMatrix('Concord CLI -> SDK server', CONCORD_CLI_ROWS, () => startSdk({ protoJsonCard: true }));
