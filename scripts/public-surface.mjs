#!/usr/bin/env node
// Counts the names each public entry (package.json "exports") offers a user: values and types,
// as TypeScript sees them from the source entry file. `--json` prints the table as JSON.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Entry name → source file, from the "types" target of each export (dist/x.d.ts → src/x.ts). */
export function publicEntries() {
  const entries = [];
  for (const [name, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'string' ? target : target.types;
    if (types === undefined || !types.endsWith('.d.ts')) continue;
    entries.push({ name, file: join(root, types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')) });
  }
  return entries;
}

/** Exported names per entry. */
export function countSurface() {
  const entries = publicEntries();
  const program = ts.createProgram(
    entries.map((e) => e.file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
  );
  const checker = program.getTypeChecker();
  return entries.map(({ name, file }) => {
    const source = program.getSourceFile(file);
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    const names = symbol === undefined ? [] : checker.getExportsOfModule(symbol).map((s) => s.name);
    return { entry: name, names: names.sort() };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const table = countSurface();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(table, null, 2));
  } else {
    const all = new Set();
    let total = 0;
    for (const { entry, names } of table) {
      console.log(`${String(names.length).padStart(5)}  ${entry}`);
      total += names.length;
      for (const n of names) all.add(n);
    }
    console.log(`${String(total).padStart(5)}  total (${all.size} distinct)`);
  }
}
