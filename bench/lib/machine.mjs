// One-line facts about the machine and the code under test, for the report header, so numbers
// from different runs can be told apart.

import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { cpus, availableParallelism } from 'node:os';

async function versionOf(pkg) {
  try {
    const url = new URL(`../../node_modules/${pkg}/package.json`, import.meta.url);
    return JSON.parse(await readFile(url, 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

function gitRevision() {
  try {
    const opts = {
      encoding: 'utf8',
      cwd: new URL('..', import.meta.url),
      stdio: ['ignore', 'pipe', 'ignore'],
    };
    const rev = execFileSync('git', ['rev-parse', '--short', 'HEAD'], opts).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], opts).trim() !== '';
    return `${rev}${dirty ? ' (src has uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** Lines like "Node v20.19.0 on linux x64, 2 cores (CPU model)". */
export async function describeMachine() {
  return [
    `${new Date().toISOString()}, concord at ${gitRevision()}`,
    `Node ${process.version} on ${process.platform} ${process.arch}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'})`,
    `@a2a-js/sdk ${await versionOf('@a2a-js/sdk')}, express ${await versionOf('express')}, autocannon ${await versionOf('autocannon')}`,
  ];
}
