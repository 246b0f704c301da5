/**
 * A listener's connections, counted and capped (decision 0146). Each socket is a file descriptor;
 * a flood of connections that never send a byte used to take every descriptor the process had,
 * and then nothing else could be accepted, opened or dialled until they timed out. Past the cap,
 * each new connection sheds the oldest connection that has not sent a byte yet (connections that
 * have are never cut here: the header timeout ends those that stall); when there is none, the new
 * connection itself is closed. So under a flood of idle sockets real requests keep being served,
 * and the process stays below its descriptor limit.
 */
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { ReleasingSet } from '../common/releasing-set.js';

/** A socket while it may still be one that never spoke; `release` drops it from that queue. */
interface Quiet {
  socket: Socket;
  release: (() => void) | undefined;
}

/** The default cap where the descriptor limit cannot be read (it is below 1,024 with headroom). */
export const FALLBACK_MAX_CONNECTIONS = 768;
/** The largest default cap: beyond it, memory rather than descriptors runs out first. */
export const DEFAULT_MAX_CONNECTIONS_CEILING = 8192;

let defaultCap: number | undefined;

/**
 * The default cap: three quarters of the process's open-file limit (the rest is for stores, logs,
 * outbound connections and a second listener), at most 8,192; 768 where the limit is unknown.
 */
export function defaultMaxConnections(): number {
  if (defaultCap === undefined) {
    const limit = openFileLimit();
    defaultCap =
      limit === undefined
        ? FALLBACK_MAX_CONNECTIONS
        : Math.max(16, Math.min(DEFAULT_MAX_CONNECTIONS_CEILING, Math.floor(limit * 0.75)));
  }
  return defaultCap;
}

/** The soft RLIMIT_NOFILE as node runs under it (Linux); undefined elsewhere or when unlimited. */
function openFileLimit(): number | undefined {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** Counts a listener's connections and sheds the oldest silent one past the cap. */
export class ConnectionGuard {
  readonly #all = new ReleasingSet<Socket>();
  /** Sockets not yet seen to have sent a byte, oldest first. */
  readonly #quiet = new ReleasingSet<Quiet>();
  #open = 0;
  #shed = 0;

  constructor(readonly maxConnections: number) {}

  /** Tracks a new connection; past the cap, sheds one (see the file comment). */
  admit(socket: Socket): void {
    this.#open += 1;
    const untrack = this.#all.add(socket);
    const quiet: Quiet = { socket, release: undefined };
    quiet.release = this.#quiet.add(quiet);
    socket.once('close', () => {
      this.#open -= 1;
      untrack();
      quiet.release?.();
      quiet.release = undefined;
    });
    if (this.#open > this.maxConnections) this.shedOne();
  }

  /** Open connections (those shed this turn until their 'close'). */
  get open(): number {
    return this.#open;
  }

  /** Connections closed to make room since the listener started. */
  get shed(): number {
    return this.#shed;
  }

  /** Every open connection, for shutdown. */
  sockets(): IterableIterator<Socket> {
    return this.#all.values();
  }

  private shedOne(): void {
    for (const quiet of this.#quiet.values()) {
      const { socket } = quiet;
      if (socket.destroyed) continue;
      if (socket.bytesRead === 0) {
        this.#shed += 1;
        socket.destroy();
        return;
      }
      // It has spoken, so it never becomes a candidate again: each socket is looked at once.
      quiet.release?.();
      quiet.release = undefined;
    }
  }
}
