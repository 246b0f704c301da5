/**
 * Where the definitions of a host are: what `loadHost`'s target names (a directory, a config
 * file or one agent markdown file), and which markdown files a directory holds.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

/** The config file names looked for in a directory, in order of preference. */
export const CONFIG_FILE_NAMES = ['concord.config.json5', 'concord.config.json'];

/** What a target resolves to. */
export type TargetKind =
  | { kind: 'directory'; dir: string; configs: string[] }
  | { kind: 'config'; file: string }
  | { kind: 'markdown'; file: string }
  | { kind: 'missing'; path: string }
  | { kind: 'unsupported'; path: string };

/** Classifies `target` (resolved to an absolute path). */
export function classifyTarget(target: string): TargetKind {
  const path = resolve(target);
  if (!existsSync(path)) return { kind: 'missing', path };
  if (statSync(path).isDirectory()) {
    const configs = CONFIG_FILE_NAMES.map((name) => join(path, name)).filter((file) => existsSync(file));
    return { kind: 'directory', dir: path, configs };
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.md') return { kind: 'markdown', file: path };
  if (ext === '.json5' || ext === '.json') return { kind: 'config', file: path };
  return { kind: 'unsupported', path };
}

/**
 * The `*.md` files in `dir`, sorted so agents load in a stable order; with `recursive`, also in
 * its subdirectories. Hidden entries and `node_modules` are never agent definitions.
 */
export function listMarkdownFiles(dir: string, recursive: boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive) out.push(...listMarkdownFiles(full, true));
    } else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
      out.push(full);
    }
  }
  return out.sort();
}
