/**
 * The dependency rules of docs/architecture.md, checked on the source: layers import only inward,
 * the CLI and the host use public entries only, there are no import cycles, and no file of code
 * (the source, the tests, the benchmark and the examples) is over 600 lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

const ROOT = resolve(import.meta.dirname, '..');

/** Files below `dir` whose names end in one of `endings`, skipping node_modules and bench/.tmp. */
function files(dir: string, endings: readonly string[] = ['.ts']): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === '.tmp') return [];
    if (statSync(full).isDirectory()) return files(full, endings);
    return endings.some((e) => full.endsWith(e)) ? [full] : [];
  });
}

const all = files(SRC);
const rel = (file: string): string => relative(SRC, file).replace(/\\/g, '/');

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/g)) out.push(m[1]!);
  for (const m of text.matchAll(/import\('([^']+)'\)/g)) out.push(m[1]!);
  return out
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => rel(resolve(dirname(file), spec)).replace(/\.js$/, '.ts'));
}

const graph = new Map(all.map((file) => [rel(file), importsOf(file)]));
const layer = (path: string): string => path.split('/')[0]!.replace(/\.ts$/, '');

// Which layers each layer may import (besides itself). DESIGN.md "Dependencies point inward".
const ALLOWED: Record<string, string[]> = {
  protocol: [],
  // The outbound-address guard, shared by client and server (decision 0086).
  net: [],
  contracts: ['protocol'],
  store: ['protocol'],
  card: ['protocol', 'contracts', 'store'],
  server: ['protocol', 'contracts', 'store', 'card', 'net'],
  client: ['protocol', 'contracts', 'card', 'net'],
  host: ['protocol', 'contracts', 'store', 'card', 'server', 'client', 'cluster'],
  extensions: ['protocol', 'contracts', 'store', 'card', 'server', 'client'],
  check: ['protocol', 'card', 'client'],
  // Cluster buses (decisions 0115-0116): the ClusterBus port is the server's; they implement it.
  // The PostgreSQL bus shares the store's schema, so it checks schema names by the store's rule.
  cluster: ['server', 'store'],
  cli: [
    'protocol',
    'contracts',
    'store',
    'card',
    'server',
    'client',
    'host',
    'extensions',
    'check',
    'cluster',
  ],
  index: ['protocol', 'server'],
};

// Public entries: what host, extensions and cli may import from other layers.
const PUBLIC =
  /^(protocol|contracts|store|card|server|client|host|extensions|check)\/index\.ts$|^extensions\/[a-z0-9-]+\/index\.ts$|^server\/adapters\/[a-z-]+\.ts$|^server\/grpc\/index\.ts$|^store\/(sqlite|postgres)\/index\.ts$|^cluster\/(postgres|redis)\/index\.ts$/;

describe('architecture', () => {
  it('finds the source files', () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it('keeps dependencies pointing inward', () => {
    const violations: string[] = [];
    for (const [file, deps] of graph) {
      const from = layer(file);
      for (const dep of deps) {
        const to = layer(dep);
        if (to === from) continue;
        if (!(ALLOWED[from] ?? []).includes(to)) violations.push(`${file} -> ${dep}`);
        else if (['host', 'extensions', 'check', 'cli', 'cluster'].includes(from) && !PUBLIC.test(dep)) {
          violations.push(`${file} -> ${dep} (not a public entry)`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('never lets server and client import each other', () => {
    const crossing = [...graph].flatMap(([file, deps]) =>
      deps
        .filter(
          (d) =>
            (layer(file) === 'server' && layer(d) === 'client') ||
            (layer(file) === 'client' && layer(d) === 'server'),
        )
        .map((d) => `${file} -> ${d}`),
    );
    expect(crossing).toEqual([]);
  });

  it('has no import cycles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
        return;
      }
      state.set(node, 'visiting');
      for (const dep of graph.get(node) ?? []) visit(dep, [...trail, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('keeps every file of code under 600 lines', () => {
    const code = ['src', 'test', 'bench', 'examples'].flatMap((dir) =>
      files(join(ROOT, dir), ['.ts', '.mts', '.mjs', '.js']),
    );
    expect(code.length).toBeGreaterThan(all.length);
    const long = code
      .map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length] as const)
      .filter(([, n]) => n > 600);
    expect(long).toEqual([]);
  });
});
