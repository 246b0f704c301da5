/**
 * Dev mode (`concord serve --watch`): watch where the host's definitions come from and reload the
 * host when one changes (decision 0022). A reload loads everything again — the config, every agent
 * file, the handler modules — and hands it to `AgentHost.reload`, which rebuilds every agent's
 * cards, authenticator, signer and (when what it depends on changed) executor, and applies them
 * all at once. A change that does not load, or an agent that does not build, leaves the host
 * serving what it served before, and every problem is reported with its file, line and field.
 *
 * Watched: the target's directory, recursively, and the directories of every agent file and
 * handler module outside it. Only files that can hold a definition trigger a reload, so a task
 * store written next to the definitions does not.
 */
import { watch, type FSWatcher } from 'node:fs';
import { statSync } from 'node:fs';
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { AgentHost, ReloadReport } from './agent-host.js';
import { loadHost } from './definitions/index.js';

/** What one reload did, or why nothing changed. */
export type ReloadOutcome = ({ ok: true } & ReloadReport) | { ok: false; error: Error };

/** A running watch. */
export interface DefinitionWatch {
  close(): void;
}

/** Options of `watchDefinitions`. */
export interface WatchOptions {
  env: NodeJS.ProcessEnv;
  /** Quiet time after the last file event before reloading (editors write in several steps). */
  debounceMs?: number | undefined;
  onReload?: ((outcome: ReloadOutcome) => void) | undefined;
}

/** Extensions of files a host is defined by: definitions, config, handler modules, keys. */
const RELEVANT = new Set(['.md', '.json5', '.json', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.pem']);

/** Whether a changed file could change the host (hidden files and dependencies never do). */
function relevant(file: string | null): boolean {
  if (file === null) return true;
  const segments = file.split(/[\\/]/);
  if (segments.some((s) => s.startsWith('.') || s === 'node_modules')) return false;
  return RELEVANT.has(extname(file).toLowerCase());
}

function inside(dir: string, root: string): boolean {
  const path = relative(root, dir);
  return !isAbsolute(path) && path !== '..' && !path.startsWith(`..${sep}`);
}

/** Watches the sources of `target` and reloads `host` on changes. */
export function watchDefinitions(target: string, host: AgentHost, options: WatchOptions): DefinitionWatch {
  const full = resolve(target);
  const root = statSync(full).isDirectory() ? full : dirname(full);
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  let closed = false;

  const schedule = (file: string | null): void => {
    if (closed || !relevant(file)) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(reload);
    }, options.debounceMs ?? 150);
  };

  const add = (dir: string, recursive: boolean): void => {
    if (watchers.has(dir)) return;
    try {
      const watcher = watch(dir, { recursive }, (_event, file) => schedule(file));
      // A watched directory that goes away stops being watched; the next reload says what is missing.
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(dir);
      });
      watchers.set(dir, watcher);
    } catch {
      // Not there (yet): the reload that needs it reports the missing file.
    }
  };

  /** Watches the directories of the agents and handlers outside the root, as of the current config. */
  const rewatch = (): void => {
    const wanted = new Set<string>();
    for (const agent of host.config.agents) {
      for (const file of [agent.source.file, agent.handler]) {
        if (file === undefined) continue;
        const dir = dirname(file);
        if (!inside(dir, root)) wanted.add(dir);
      }
    }
    for (const [dir, watcher] of watchers) {
      if (dir !== root && !wanted.has(dir)) {
        watcher.close();
        watchers.delete(dir);
      }
    }
    for (const dir of wanted) add(dir, false);
  };

  const reload = async (): Promise<void> => {
    if (closed) return;
    try {
      const config = await loadHost(target, { env: options.env });
      const report = await host.reload(config);
      rewatch();
      options.onReload?.({ ok: true, ...report });
    } catch (error) {
      options.onReload?.({ ok: false, error: error instanceof Error ? error : new Error(String(error)) });
    }
  };

  add(root, true);
  rewatch();
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
