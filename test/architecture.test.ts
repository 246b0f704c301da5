/**
 * The dependency rules of docs/architecture.md, checked on the source: every module specifier of
 * every file under src/ (static, re-export, side-effect, type, dynamic and require) read with the
 * TypeScript compiler and checked against the boundaries of scripts/boundaries.mjs (the tables
 * eslint.config.js checks too); no import cycles; no file of code over 600 lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  checkImport,
  COMPUTED_IMPORTS,
  layerOf,
  PACKAGES,
  resolveRelative,
  type ImportRef,
} from '../scripts/boundaries.mjs';

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

/** The literal text of a module-name expression, or undefined when it is computed. */
function literal(node: ts.Node | undefined): string | undefined {
  return node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** Whether a call is `require(x)`, `require.resolve(x)` or `createRequire(...).resolve(x)`. */
function isRequire(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'resolve') return false;
  const base = callee.expression;
  return (
    (ts.isIdentifier(base) && base.text === 'require') ||
    (ts.isCallExpression(base) &&
      ts.isIdentifier(base.expression) &&
      base.expression.text === 'createRequire')
  );
}

/** Every import of a module in `text`, in any of its forms; a computed name has no specifier. */
function importsIn(name: string, text: string): ImportRef[] {
  const out: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      out.push({
        specifier: literal(node.moduleSpecifier),
        typeOnly: node.importClause?.isTypeOnly === true,
      });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      out.push({ specifier: literal(node.moduleSpecifier), typeOnly: node.isTypeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      out.push({ specifier: literal(node.moduleReference.expression), typeOnly: node.isTypeOnly });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      out.push({ specifier: literal(node.argument.literal), typeOnly: true });
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequire(node.expression))
    ) {
      out.push({ specifier: literal(node.arguments[0]) });
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return out;
}

/** Every boundary a set of files (path relative to src/ -> text) crosses, as `file: problem`. */
function violations(sources: Record<string, string>): string[] {
  return Object.entries(sources).flatMap(([file, text]) =>
    importsIn(file, text).flatMap((ref) => {
      const problem = checkImport(file, ref);
      return problem === undefined ? [] : [`${file}: ${problem}`];
    }),
  );
}

const all = files(SRC);
const rel = (file: string): string => relative(SRC, file).replace(/\\/g, '/');
const sources = Object.fromEntries(all.map((file) => [rel(file), readFileSync(file, 'utf8')]));

/** The src files each file imports (relative specifiers), for the cycle check. */
const graph = new Map(
  Object.entries(sources).map(([file, text]) => [
    file,
    importsIn(file, text)
      .map((ref) => ref.specifier)
      .filter((spec): spec is string => spec?.startsWith('.') === true)
      .map((spec) => resolveRelative(file, spec)),
  ]),
);

describe('architecture', () => {
  it('finds the source files and their imports', () => {
    expect(all.length).toBeGreaterThan(20);
    expect([...graph.values()].flat().length).toBeGreaterThan(all.length);
  });

  it('keeps every import of src/ within its boundaries', () => {
    expect(violations(sources)).toEqual([]);
  });

  it('catches the imports that cross a boundary (planted in memory)', () => {
    const planted = {
      // The two: a Node server module in the pure protocol, one extension's internals.
      'protocol/planted.ts': "import 'node:http';\n",
      'extensions/aap/planted.ts': "import { appendEvidence } from '../aump/evidence-chain.js';\n",
      // Every other form a specifier takes, each crossing one boundary.
      'protocol/a.ts': "export { x } from 'better-sqlite3';\nimport type { Server } from 'node:http';\n",
      'protocol/b.ts': "import { A2AServer } from 'concord/server';\nconst m = import('concord-a2a');\n",
      'protocol/c.ts': "import { Root } from 'protobufjs';\nconst fs = require('fs');\n",
      'server/d.ts': "const pg = await import('pg');\ntype C = typeof import('../client/index.js');\n",
      'store/e.ts': 'const driver = await import(name);\n',
      'host/f.ts': "import { x } from '../server/request-handler.js';\nimport 'left-pad';\n",
      // An extension is written as a user writes one: public entries, never an internal one.
      'extensions/aap/g.ts': "import { RequestHandler } from '../../server/internal.js';\n",
      // Allowed: an extension's public entry, protobufjs types, the allowed computed import.
      'extensions/aap/fine.ts': "import { aump } from '../aump/index.js';\n",
      'protocol/grpc/fine.ts': "import type { Root } from 'protobufjs';\n",
      'cli/serve/load-agent.ts': 'const mod = await import(pathToFileURL(file).href);\n',
      // Allowed: the CLI and the host reach internals through a layer's internal entry (0155).
      'cli/fine.ts': "import { parseDuration } from '../store/internal.js';\n",
      'host/fine.ts': "import { RequestHandler } from '../server/internal.js';\n",
    };
    const found = violations(planted);
    expect(found).toEqual([
      'protocol/planted.ts: node:http: protocol/ is pure and imports only node:url in protocol/grpc/proto-files.ts',
      'extensions/aap/planted.ts: ../aump/evidence-chain.js: extensions/aap/ reaches into extensions/aump/ (use its index.ts)',
      'protocol/a.ts: better-sqlite3: better-sqlite3 belongs to store/sqlite/',
      'protocol/a.ts: node:http: protocol/ is pure and imports only node:url in protocol/grpc/proto-files.ts',
      'protocol/b.ts: concord/server: the package imports itself relatively, never by its name',
      'protocol/b.ts: concord-a2a: the package imports itself relatively, never by its name',
      'protocol/c.ts: protobufjs: protobufjs belongs to server/grpc/, client/transports/grpc-, protocol/grpc/ (types only)',
      'protocol/c.ts: fs: name Node built-ins with the node: prefix',
      'server/d.ts: pg: pg belongs to store/postgres/, cluster/postgres/',
      'server/d.ts: ../client/index.js: server may not import client',
      'store/e.ts: an import of a computed module name (allow it in COMPUTED_IMPORTS with a reason)',
      'host/f.ts: ../server/request-handler.js: server/request-handler.ts is not an entry (host uses public or internal entries only)',
      'host/f.ts: left-pad: left-pad is not in the package table (scripts/boundaries.mjs)',
      'extensions/aap/g.ts: ../../server/internal.js: server/internal.ts is not a public entry (extensions uses public entries only)',
    ]);
  });

  it('lists exactly the runtime dependencies in the package table, and only real computed imports', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    const runtime = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)];
    expect(Object.keys(PACKAGES).sort()).toEqual(runtime.sort());
    // An allowance outlives its reason unnoticed unless each one still names a computed import.
    for (const file of Object.keys(COMPUTED_IMPORTS)) {
      expect(importsIn(file, sources[file] ?? '').some((ref) => ref.specifier === undefined)).toBe(true);
    }
  });

  it('never lets server and client import each other', () => {
    const crossing = [...graph].flatMap(([file, deps]) =>
      deps
        .filter(
          (d) =>
            (layerOf(file) === 'server' && layerOf(d) === 'client') ||
            (layerOf(file) === 'client' && layerOf(d) === 'server'),
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
    const code = ['src', 'test', 'bench', 'examples', 'scripts'].flatMap((dir) =>
      files(join(ROOT, dir), ['.ts', '.mts', '.mjs', '.js']),
    );
    expect(code.length).toBeGreaterThan(all.length);
    const long = code
      .map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length] as const)
      .filter(([, n]) => n > 600);
    expect(long).toEqual([]);
  });
});
