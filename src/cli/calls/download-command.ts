/**
 * `concord task download <taskId> -a <agent>` (a2a-cli SPEC v0.2 §5.1, §8.2; `A2ACLI_DOWNLOAD_001`;
 * decision 0169): writes a task's artifacts to disk, which `send` and `task get` never do (they
 * report a file part by name, media type and size). Each part becomes one file in `--dir`: a file
 * part with bytes under its own name, a text part as `.txt`, a data part as `.json`. A file part
 * given by URL is listed, not fetched: the URL is the agent's to serve, and fetching whatever an
 * agent names would make the CLI a fetcher of arbitrary URLs. A name from the agent is reduced to
 * its last path segment with no control characters, and an existing file is never overwritten
 * (the next free `name-2.ext`, `name-3.ext`... is taken), so an agent cannot write outside `--dir`
 * or over the user's files.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import type { Artifact, Part } from '../../protocol/index.js';
import type { CliIo } from '../cli-io.js';
import { EXIT } from '../exit-codes.js';
import { openAgent } from './agent-connection.js';
import { agentAndTaskOf } from './agent-ref.js';
import {
  CALL_OPTIONS,
  CALL_OPTIONS_USAGE,
  checkCallFlags,
  outputOf,
  parseCall,
  startTimeout,
  printHelp,
} from './call-flags.js';
import { runCall } from './call-runner.js';
import { field } from './task-text.js';

/** Usage text of `task download`. */
export const DOWNLOAD_USAGE = `Usage: concord task download <taskId> -a <agent> [--dir <path>] [--artifact <id|name>] [options]

Saves a task's artifacts: each part one file in --dir, a file part under its own name (its
bytes), a text part as .txt, a data part as .json. A file part the agent gives by URL is listed
with its URL and not fetched. Existing files are never overwritten: name-2.ext is taken instead.

Options:
  --dir <path>            where the files go (default: the current directory; made if missing)
  --artifact <id|name>    only this artifact (repeatable)

With -o json the one document is {"files": [...]}, each saved file's path, artifact, part,
media type and size, and each unfetched URL.

${CALL_OPTIONS_USAGE}`;

/** One part's outcome. */
interface Saved {
  artifactId: string;
  part: number;
  mediaType: string | null;
  path: string | null;
  bytes: number | null;
  /** A file part by URL, not fetched. */
  url: string | null;
}

/** A name an agent gave, safe as one file name in the target directory. */
function safeName(name: string): string {
  const last = basename(name.replace(/\\/g, '/'));
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\x00-\x1f\x7f]/g, '').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'artifact' : clean;
}

/** The first name not taken in `dir`: `name`, then `name-2.ext`, `name-3.ext`... */
function freePath(dir: string, name: string): string {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let path = join(dir, name);
  for (let n = 2; existsSync(path); n++) path = join(dir, `${stem}-${n}${ext}`);
  return path;
}

/** The bytes and the file name a part is saved as; undefined for a part by URL or an empty one. */
function contentOf(
  part: Part,
  artifact: Artifact,
  index: number,
): { name: string; bytes: Buffer } | undefined {
  const base = safeName(artifact.name ?? artifact.artifactId);
  const suffix = artifact.parts.length > 1 ? `-${index + 1}` : '';
  if (part.raw !== undefined)
    return {
      name:
        part.filename === undefined || part.filename === '' ? `${base}${suffix}` : safeName(part.filename),
      bytes: Buffer.from(part.raw, 'base64'),
    };
  if (part.text !== undefined) return { name: `${base}${suffix}.txt`, bytes: Buffer.from(part.text) };
  if (part.data !== undefined)
    return { name: `${base}${suffix}.json`, bytes: Buffer.from(`${JSON.stringify(part.data, null, 2)}\n`) };
  return undefined;
}

/** Runs `task download`; returns the exit code. */
export function downloadCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'task download', args, async (context) => {
    const { values, positionals } = parseCall(
      {
        args,
        allowPositionals: true,
        options: {
          ...CALL_OPTIONS,
          dir: { type: 'string' },
          artifact: { type: 'string', multiple: true },
        },
      },
      io,
    );
    if (values.help === true) return printHelp(io, DOWNLOAD_USAGE, values);
    const { ref, id } = agentAndTaskOf(values, positionals, DOWNLOAD_USAGE);
    checkCallFlags(values);
    const json = outputOf(values) === 'json';
    startTimeout(values, context);
    const client = await openAgent(ref, values, context, io);
    let task;
    try {
      task = await client.getTask({ id }, { signal: context.signal });
    } finally {
      client.close();
    }
    const wanted = values.artifact;
    const artifacts = (task.artifacts ?? []).filter(
      (a) =>
        wanted === undefined ||
        wanted.includes(a.artifactId) ||
        (a.name !== undefined && wanted.includes(a.name)),
    );
    const dir = resolve(values.dir ?? '.');
    mkdirSync(dir, { recursive: true });
    const saved: Saved[] = [];
    for (const artifact of artifacts)
      artifact.parts.forEach((part, index) => {
        const entry = { artifactId: artifact.artifactId, part: index + 1, mediaType: part.mediaType ?? null };
        const content = contentOf(part, artifact, index);
        if (content === undefined) {
          saved.push({ ...entry, path: null, bytes: null, url: part.url ?? null });
          return;
        }
        const path = freePath(dir, content.name);
        // `wx`: should the name be taken between the check and the write, fail rather than overwrite.
        writeFileSync(path, content.bytes, { flag: 'wx' });
        saved.push({ ...entry, path, bytes: content.bytes.length, url: null });
      });
    if (json) io.write(`${JSON.stringify({ files: saved })}\n`);
    else {
      let out = field('Task', task.id) + field('Context', task.contextId) + field('State', task.status.state);
      for (const s of saved) {
        const what = `${s.artifactId} part ${s.part}${s.mediaType === null ? '' : `, ${s.mediaType}`}`;
        if (s.path !== null) out += field('Saved', `${s.path} (${s.bytes} bytes; ${what})`);
        else if (s.url !== null) out += field('Not fetched', `${s.url} (${what})`);
        else out += field('Skipped', `a part with no content (${what})`);
      }
      io.write(out);
    }
    if (artifacts.length === 0)
      io.err(`notice: task ${task.id} has no artifact${wanted === undefined ? '' : ' by that name'} to save`);
    return EXIT.OK;
  });
}
