/**
 * `npm run docs` fails on a broken doc-comment link. The whole-project run is a CI step
 * (.ci/run, ~15 s); here the project's own typedoc.json is extended by a one-file project so the
 * check stays fast while still exercising the real settings (validation, treatWarningsAsErrors)
 * through the typedoc executable. A valid link must pass, so the failure is the link's doing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const TYPEDOC = join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
const dir = mkdtempSync(join(tmpdir(), 'concord-typedoc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs typedoc with the project's options on one entry whose comment links to `target`. */
function docsFor(name: string, target: string): { status: number | null; output: string } {
  writeFileSync(
    join(dir, `${name}.ts`),
    `/** A value. */\nexport const present = 1;\n\n/** Says hello; see {@link ${target}}. */\nexport function hello(): string {\n  return 'hello';\n}\n`,
  );
  writeFileSync(
    join(dir, `tsconfig.${name}.json`),
    JSON.stringify({
      compilerOptions: { strict: true, module: 'NodeNext', target: 'ES2022', skipLibCheck: true, types: [] },
      files: [`${name}.ts`],
    }),
  );
  // The child overrides where to read and write; everything else comes from the project's file.
  // Its list of known unexported types names project files, so it is emptied here.
  writeFileSync(
    join(dir, `typedoc.${name}.json`),
    JSON.stringify({
      extends: [join(ROOT, 'typedoc.json')],
      entryPoints: [`${name}.ts`],
      tsconfig: `tsconfig.${name}.json`,
      out: `out-${name}`,
      intentionallyNotExported: [],
    }),
  );
  const run = spawnSync(process.execPath, [TYPEDOC, '--options', join(dir, `typedoc.${name}.json`)], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('npm run docs (typedoc.json)', () => {
  it('passes when every {@link} resolves', () => {
    const run = docsFor('good', 'present');
    expect(run.output).not.toMatch(/warning|error/i);
    expect(run.status).toBe(0);
  }, 30_000);

  it('fails, naming the link, when a {@link} points at nothing', () => {
    const run = docsFor('broken', 'Nope');
    expect(run.output).toMatch(/Failed to resolve link to "Nope"/);
    expect(run.status).not.toBe(0);
  }, 30_000);
});
