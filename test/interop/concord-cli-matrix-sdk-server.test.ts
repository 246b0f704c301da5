/**
 * Interop matrix (issue 22), Concord to SDK: the built `concord` CLI, as a process per call, on
 * JSON-RPC 1.0 and HTTP+JSON 0.3 (`--binding`, `--a2a-version`; concord-drivers.ts says why those two), runs the operations it
 * offers (send, send --stream, get, list, cancel, subscribe, card) against the official SDK's
 * server over real sockets. Its own file, so its process starts run beside the other matrices
 * (sequentially within it: concurrent cells only fought over the CPU on a loaded 2-core machine).
 */
import { CONCORD_CLI_ROWS } from './matrix/concord-drivers.js';
import { runMatrix } from './matrix/run-matrix.js';
import { startSdk } from './matrix/servers.js';

runMatrix('Concord CLI -> SDK server', CONCORD_CLI_ROWS, () => startSdk({ protoJsonCard: true }));
