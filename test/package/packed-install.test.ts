/**
 * The package as a user gets it: packed from a copy of the tracked files alone (prepack builds
 * dist/ from nothing), installed from the tarball into a fresh strict TypeScript project
 * (`strict`, no `skipLibCheck`), where every public entry must compile, and the Write an agent
 * guide's sample must serve and answer a call from the installed client.
 *
 * It needs the npm registry; without it the suite is skipped, saying so. Optional peers are
 * installed at this repository's versions only where an entry's types or the sample need them
 * (decision 0153). better-sqlite3 is installed without its install script and given this
 * repository's already-built binary (same version, same Node) in place of the prebuilt one its
 * script would download: the native build from source takes over a minute.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const GUIDE = join(ROOT, 'docs', 'guides', 'write-an-agent.md');
const SAMPLE_MARKER = '<!-- sample: write-an-agent -->';

interface Manifest {
  name: string;
  exports: Record<string, string | { types?: string; import: string }>;
  peerDependencies: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** The version of `name` this repository develops against: the installed one, exactly. */
function repoVersion(name: string): string {
  const file = join(ROOT, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * Entries whose types import an optional peer: a strict app using them installs these too
 * (README "Install"). The gRPC packages ship their own types; the drivers' come from @types.
 */
const ENTRY_TYPE_PEERS: Record<string, string[]> = {
  './server/grpc': ['@grpc/grpc-js', 'grpc-health-check'],
  './store/sqlite': ['@types/better-sqlite3'],
  './store/postgres': ['@types/pg'],
  './cluster/postgres': ['@types/pg'],
};

function registryReachable(): boolean {
  try {
    execFileSync('npm', ['ping'], { stdio: 'ignore', timeout: 15_000 });
    return true;
  } catch {
    return false;
  }
}
const online = registryReachable();
if (!online) console.warn('packed-install: skipped, the npm registry is not reachable (`npm ping` failed)');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, timeout = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({
        code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
        stdout,
        stderr,
      }),
    );
  });
}

async function must(command: string, args: string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.code}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** The guide's sample: the first ```ts block after the marker, listening on any free port. */
function guideSample(): string {
  const guide = readFileSync(GUIDE, 'utf8');
  const at = guide.indexOf(SAMPLE_MARKER);
  if (at < 0) throw new Error(`${GUIDE} has no ${SAMPLE_MARKER} marker`);
  const block = /```ts\n([\s\S]*?)```/.exec(guide.slice(at));
  if (block?.[1] === undefined) throw new Error(`no ts code block after ${SAMPLE_MARKER}`);
  const ports = block[1].match(/port: \d+/g) ?? [];
  if (ports.length !== 1) throw new Error(`the sample should name one port, found ${ports.length}`);
  return block[1].replace(/port: \d+/, 'port: 0');
}

/** A call through the installed client: sends `argv[3]` to the agent at `argv[2]`, prints the reply. */
const CLIENT = `import { randomUUID } from 'node:crypto';
import { A2AClient } from 'concord-a2a/client';

const [url, text] = process.argv.slice(2);
if (url === undefined || text === undefined) throw new Error('usage: client <url> <text>');
const client = await A2AClient.connect(url, { allowPrivateNetworks: true });
const response = await client.sendMessage({
  message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
});
const texts =
  'task' in response
    ? (response.task.artifacts ?? []).flatMap((artifact) => artifact.parts.map((part) => part.text))
    : response.message.parts.map((part) => part.text);
console.log(JSON.stringify({ state: 'task' in response ? response.task.status.state : 'message', texts }));
await client.close();
`;

let work = '';
let tarball = '';
let peersInstalledWithIt: string[] = [];
let agent: ChildProcess | undefined;

describe.skipIf(!online)('the packed package, installed into a fresh strict project', () => {
  const entries = Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object')
    .map(([name]) => name);

  let clone = '';
  let app = '';

  // Made here, not at load, so that a skipped run leaves nothing behind.
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'concord-packed-'));
    clone = join(work, 'clone');
    app = join(work, 'app');
    // A clean clone: the tracked files as they stand in this checkout (so an uncommitted change
    // is tested too), nothing built or ignored; this repository's node_modules lends prepack its
    // compiler.
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((file) => file !== '' && existsSync(join(ROOT, file)));
    for (const file of tracked) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(clone, file));
    }
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(clone, 'node_modules'));
    await must('npm', ['pack', '--silent', '--pack-destination', work], clone);
    const packed = readdirSync(work).filter((file) => file.endsWith('.tgz'));
    expect(packed).toHaveLength(1);
    tarball = join(work, packed[0] ?? '');
    console.log(`packed-install: ${packed[0]} is ${statSync(tarball).size} bytes`);

    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          noEmit: true,
        },
        include: ['*.ts'],
      }),
    );
    const install = ['install', '--no-audit', '--no-fund', '--prefer-offline'];
    const pinned = (names: string[]) => names.map((name) => `${name}@${repoVersion(name)}`);
    await must('npm', [...install, tarball, ...pinned(['typescript', '@types/node'])], app);
    peersInstalledWithIt = Object.keys(manifest.peerDependencies).filter((peer) =>
      existsSync(join(app, 'node_modules', peer)),
    );
    // What the entries' types and the sample need. See the header for better-sqlite3's binary:
    // the one a prebuilt download would bring, without the download.
    const typePeers = [...new Set(Object.values(ENTRY_TYPE_PEERS).flat())];
    await must('npm', [...install, '--ignore-scripts', ...pinned([...typePeers, 'better-sqlite3'])], app);
    const binary = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    mkdirSync(dirname(join(app, binary)), { recursive: true });
    copyFileSync(join(ROOT, binary), join(app, binary));
  }, 240_000);

  afterAll(() => {
    agent?.kill();
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  it('installs the package from the tarball without its optional peers', () => {
    expect(peersInstalledWithIt).toEqual([]);
    const installed = JSON.parse(
      readFileSync(join(app, 'node_modules', manifest.name, 'package.json'), 'utf8'),
    ) as Manifest;
    expect(installed.exports).toEqual(manifest.exports);
  });

  it('compiles an import of every public entry, the sample and a client call (strict, no skipLibCheck)', async () => {
    expect(entries).toEqual(expect.arrayContaining(['.', './client', './server', './store/sqlite']));
    const imports = entries.map(
      (name, i) => `import * as entry${i} from '${manifest.name}${name === '.' ? '' : name.slice(1)}';`,
    );
    writeFileSync(
      join(app, 'entries.ts'),
      `${imports.join('\n')}\nexport const all = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`,
    );
    writeFileSync(join(app, 'agent.ts'), guideSample());
    writeFileSync(join(app, 'client.ts'), CLIENT);
    const tsc = await run(
      process.execPath,
      [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      app,
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  }, 120_000);

  it("serves the guide's sample, which answers the installed client", async () => {
    // The check above type-checked both; this only strips the types to run them on Node 20.
    const strip = `import ts from 'typescript'; import { readFileSync, writeFileSync } from 'node:fs';
      for (const name of ['agent', 'client']) {
        const out = ts.transpileModule(readFileSync(name + '.ts', 'utf8'), {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        });
        writeFileSync(name + '.mjs', out.outputText);
      }`;
    await must(process.execPath, ['--input-type=module', '-e', strip], app);

    const child = spawn(process.execPath, ['agent.mjs'], { cwd: app });
    agent = child;
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const serving = /serving at (\S+)/.exec(out);
        if (serving?.[1] !== undefined) resolve(serving[1]);
      });
      child.on('exit', (code) =>
        reject(new Error(`the sample exited (${code}) before serving:\n${out}\n${err}`)),
      );
    });
    expect(url).toMatch(/^http:\/\/.+:\d+\/?$/);

    const call = await must(process.execPath, ['client.mjs', url, 'Ada'], app);
    expect(JSON.parse(call)).toEqual({ state: 'TASK_STATE_COMPLETED', texts: ['Hello, Ada!'] });
    // The sample's store is SQLite: the task is on disk.
    expect(existsSync(join(app, '.concord', 'tasks.db'))).toBe(true);
    child.kill();
    expect(err).toBe('');
  }, 60_000);
});
