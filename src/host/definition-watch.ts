/**
 * Dev mode: watch the definitions and rebuild what changed. Cards are generated once and cached
 * (with their ETag) until the definition they come from changes; then the agent's executor and
 * cards are rebuilt, so the next card request gets a new body and ETag and the next message runs
 * on the new definition. A change that no longer loads keeps the last good definitions and is
 * reported; adding or removing agents needs a restart (their routes and stores are fixed at start).
 */
import { watch, type FSWatcher } from 'node:fs';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AgentHost } from './agent-host.js';
import { loadHost } from './definitions/index.js';

/** A running watch. */
export interface DefinitionWatch {
  close(): void;
}

/** Options of `watchDefinitions`. */
export interface WatchOptions {
  env: NodeJS.ProcessEnv;
  /** Quiet time after the last file event before reloading (editors write in several steps). */
  debounceMs?: number;
  onReload?: (outcome: { ok: true; changed: string[] } | { ok: false; error: Error }) => void;
}

/** Watches the directory of `target` and updates `host` on changes. */
export function watchDefinitions(target: string, host: AgentHost, options: WatchOptions): DefinitionWatch {
  const full = resolve(target);
  const dir = statSync(full).isDirectory() ? full : dirname(full);
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const reload = async (): Promise<void> => {
    try {
      const config = await loadHost(target, { env: options.env });
      const changed: string[] = [];
      for (const definition of config.agents) {
        const mounted = host.mounted.get(definition.id);
        if (mounted === undefined) continue;
        if (JSON.stringify(mounted.definition) === JSON.stringify(definition)) continue;
        await mounted.update(definition);
        changed.push(definition.id);
      }
      const now = new Set(config.agents.map((a) => a.id));
      const added = [...now].filter((id) => !host.mounted.has(id));
      const removed = [...host.mounted.keys()].filter((id) => !now.has(id));
      if (added.length > 0 || removed.length > 0) {
        const what = [
          added.length > 0 ? `added ${added.join(', ')}` : '',
          removed.length > 0 ? `removed ${removed.join(', ')}` : '',
        ].filter((x) => x !== '');
        throw new Error(`agents ${what.join(' and ')}: restart the host to apply`);
      }
      options.onReload?.({ ok: true, changed });
    } catch (error) {
      options.onReload?.({ ok: false, error: error instanceof Error ? error : new Error(String(error)) });
    }
  };
  const watcher: FSWatcher = watch(dir, { recursive: true }, () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(reload);
    }, options.debounceMs ?? 150);
  });
  return {
    close() {
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
    },
  };
}
