/**
 * WAL checkpoints off the event loop (docs/performance.md, 'Checkpoints in a worker'). SQLite's
 * automatic checkpoint runs inside the COMMIT that pushes the WAL past 1000 pages, on the
 * connection that committed, and with `synchronous = NORMAL` it fsyncs the WAL and the database
 * file there. Under load that was one checkpoint every few hundred sends, each blocking the event
 * loop on the disk for about 5 ms (up to 27 ms): 16% of the SQLite server's wall time went to
 * waiting.
 *
 * A worker thread with a connection of its own checkpoints instead. The store's connection turns
 * its automatic checkpoint off once the worker is up, and back on if the worker fails, so the WAL
 * never goes unchecked. A PASSIVE checkpoint never blocks the writer, but a WAL that is always
 * being appended to is never fully backfilled at the moment the writer starts, and only then does
 * the writer start the WAL over (https://sqlite.org/wal.html#avoiding_excessively_large_wal_files).
 * So once the WAL holds `restartPages` and a passive pass has copied all of it, the worker runs a
 * RESTART checkpoint. It holds the writer back while it copies the frames written since, and the
 * WAL starts over. It waits at most RESTART_WAIT_MS for the writer and readers: a reader holding an
 * old snapshot (a shell, a backup) must not stall the event loop for a whole busy timeout.
 *
 * Durability is unchanged: a commit is in the WAL when it is acknowledged, whoever checkpoints it
 * later, and the worker's connection syncs as the store's does (`synchronous = NORMAL`).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** How often the worker checkpoints, in ms. */
const INTERVAL_MS = 50;
/**
 * WAL size, in pages, at which the worker restarts the WAL (16 MiB of 4 KiB pages). Each restart
 * holds the writer back, and SQLite's busy handler waits at least a millisecond, so restarting
 * often leaves the core idle; restarting rarely lets the WAL grow and costs p99. At c=32 on the
 * benchmark (docs/performance.md, 'Checkpoints in a worker'): 1000 pages made 64.0-71.8k requests
 * per 8 s at p99 15-19 ms, 4096 made 70.1-72.5k at 23-24 ms, and 16384 made 72.7-74.3k at 35-37 ms.
 */
export const DEFAULT_WAL_RESTART_PAGES = 4096;
/** How long a RESTART may wait for the writer and readers, in ms, and so hold the writer back. */
const RESTART_WAIT_MS = 10;
/** SQLite's own default, restored when the worker is gone. */
const AUTOCHECKPOINT_PAGES = 1000;

interface WorkerData {
  driver: string;
  path: string;
  restartWaitMs: number;
  intervalMs: number;
  restartPages: number;
}

// Plain CommonJS run with `eval`, so the same code serves the compiled package and the TypeScript
// sources under test; the driver is required by absolute path, resolved from this module.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
// A RESTART holds the write lock while it waits for readers: it must give up quickly, since the
// store's next commit waits for that lock on the event loop.
db.pragma('busy_timeout = ' + workerData.restartWaitMs);
// A checkpoint copies frames from the WAL to the file without the page cache.
db.pragma('cache_size = -64');
let timer;
function pass() {
  try {
    const [state] = db.pragma('wal_checkpoint(PASSIVE)');
    // Only once the passive pass copied every frame: a reader still on older frames (a shell, a
    // backup) would keep the restart waiting, and the writer with it.
    if (state.log >= workerData.restartPages && state.busy === 0 && state.checkpointed === state.log) {
      db.pragma('wal_checkpoint(RESTART)');
    }
  } catch (error) {
    // Busy is normally reported in the result row; a lock error is retried on the next pass.
    if (error.code !== 'SQLITE_BUSY' && error.code !== 'SQLITE_LOCKED') throw error;
  }
  timer = setTimeout(pass, workerData.intervalMs);
}
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
pass();
`;

// Resolved when the first checkpointer starts, not at import: better-sqlite3 is an optional peer
// (decision 0153), and by then the store has already loaded it.
const require = createRequire(import.meta.url);
let driverPath: string | undefined;
const driver = (): string => (driverPath ??= require.resolve('better-sqlite3'));

/** Options of the checkpointer. */
export interface WalCheckpointerOptions {
  /** The store's database file. */
  path: string;
  /** WAL size in pages at which the WAL is restarted; default DEFAULT_WAL_RESTART_PAGES. */
  restartPages?: number | undefined;
}

/** Runs the checkpoints of `db` in a worker thread; see the file comment. */
export class WalCheckpointer {
  private readonly worker: Worker;
  private stopping = false;
  private readonly exited: Promise<void>;

  constructor(
    private readonly db: Database.Database,
    options: WalCheckpointerOptions,
  ) {
    const workerData: WorkerData = {
      driver: driver(),
      path: options.path,
      restartWaitMs: RESTART_WAIT_MS,
      intervalMs: INTERVAL_MS,
      restartPages: options.restartPages ?? DEFAULT_WAL_RESTART_PAGES,
    };
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    this.worker.on('message', (message) => {
      if (message === 'ready' && !this.stopping && this.db.open) this.db.pragma('wal_autocheckpoint = 0');
    });
    // A worker that failed (or could not start) hands checkpoints back to the store's connection.
    this.worker.on('error', () => this.checkpointInline());
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        if (!this.stopping) this.checkpointInline();
        resolve();
      }),
    );
    // A store left open must not keep the process alive on the worker's account. Last: adding a
    // 'message' listener refs a worker again.
    this.worker.unref();
  }

  /** Stops the worker and waits for its connection to close. */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.checkpointInline();
      // Referenced again while it winds down: a process with nothing else to do must wait for the
      // exit rather than end in the middle of `close()`.
      this.worker.ref();
      this.worker.postMessage('stop');
    }
    await this.exited;
  }

  private checkpointInline(): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }
}
