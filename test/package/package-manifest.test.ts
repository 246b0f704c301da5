/**
 * What `npm install concord-a2a` gets (decision 0152): the name, the `concord` command, a
 * `prepack` that builds, and the packed file list as npm itself computes it (`npm pack --dry-run
 * --json`, run with --ignore-scripts so it packs the dist/ the test run built instead of
 * rebuilding). Every entry in `exports` and the bin must be in the tarball, with the run-time
 * assets (protos, schemas), and nothing of the repository's own tests, bench or sources.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRPC_PROTO_FILES } from '../../src/protocol/grpc/proto-files.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Manifest {
  name: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
  files: string[];
  exports: Record<string, string | { types: string; import: string }>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** The paths `npm pack` would put in the tarball (relative, `/`-separated, no `package/` prefix). */
function packedFiles(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`npm pack --dry-run failed: ${error.message}\n${stderr}`));
          return;
        }
        const report = JSON.parse(stdout) as { files: { path: string }[] }[];
        resolve(report[0]!.files.map((f) => f.path));
      },
    );
  });
}

describe('package.json', () => {
  it('is named concord-a2a and installs the concord command', () => {
    expect(manifest.name).toBe('concord-a2a');
    expect(manifest.bin).toEqual({ concord: 'dist/cli/main.js' });
  });

  it('builds before packing, from a clean dist/', () => {
    const prepack = manifest.scripts.prepack ?? '';
    expect(prepack).toMatch(/\bnpm run build\b/);
    expect(prepack).toMatch(/\bnpm run clean\b/);
    expect(manifest.scripts.clean).toContain("rmSync('dist'");
    expect(manifest.scripts.build).toContain('tsconfig.build.json');
  });

  it('lists dist and the run-time assets in files', () => {
    for (const entry of ['dist', 'protos', 'schemas', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
      expect(manifest.files, entry).toContain(entry);
    }
  });
});

describe('npm pack', () => {
  let files: string[];
  beforeAll(async () => {
    files = await packedFiles();
  });

  it('ships the built entries, the bin, the protos and schemas read at run time, and the documents', () => {
    const expected = [
      'dist/index.js',
      'dist/index.d.ts',
      manifest.bin.concord!,
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'package.json',
      'schemas/agent-definition.schema.json',
      'schemas/host-config.schema.json',
      'schemas/aump/mandate.schema.json',
      'schemas/aap/v0.1/schemas/vehicle.schema.json',
      ...GRPC_PROTO_FILES.map((file) => `protos/${file}`),
    ];
    for (const path of expected) expect(files, path).toContain(path);
  });

  it('ships the target of every export', () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') {
        // "./schemas/*": a pattern; the folder must have files.
        const folder = target.replace(/^\.\//, '').replace(/\*$/, '');
        expect(
          files.some((f) => f.startsWith(folder)),
          subpath,
        ).toBe(true);
        continue;
      }
      expect(files, `${subpath} import`).toContain(target.import.replace(/^\.\//, ''));
      expect(files, `${subpath} types`).toContain(target.types.replace(/^\.\//, ''));
    }
  });

  it('ships no tests, bench, sources, examples or docs', () => {
    const unwanted = files.filter(
      (f) =>
        /^(test|bench|src|examples|docs|node_modules|coverage)\//.test(f) || /\.test\.(js|ts|d\.ts)$/.test(f),
    );
    expect(unwanted).toEqual([]);
  });
});
