/**
 * `concord task download <taskId> -a <agent>` (a2a-cli SPEC v0.2 §5.1, §8.2; `A2ACLI_DOWNLOAD_001`;
 * decision 0169): writes a task's artifacts to disk, which `send` and `task get` never do (they
 * report a file part by name, media type and size). Each part becomes one file in `--dir`: a file
 * part with bytes under its own name, a text part as `.txt`, a data part as `.json`. A file part
 * given by URL is listed, not fetched: the URL is the agent's to serve, and fetching whatever an
 * agent names would make the CLI a fetcher of arbitrary URLs. A name from the agent is reduced to
 * its last path segment with no control characters, and an existing file is never overwritten
 * (the next free `name-2.ext`, `name-3.ext`... is taken), so an agent cannot write outside `--dir`
 * or over the user's files. The task is read a part at a time (decision 0173): each part is on
 * disk before the next is read, so `--max-response-bytes` bounds one part, not the task.
 */
import { randomUUID } from 'node:crypto';
import { constants, copyFileSync, existsSync, linkSync, mkdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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
Each part is written as it arrives, so --max-response-bytes bounds one part, not the task.

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

/** The bytes a part is saved as and its kind; undefined for a part by URL or an empty one. */
function contentOf(part: Part): { kind: 'raw' | 'text' | 'data'; bytes: Buffer } | undefined {
  if (part.raw !== undefined) return { kind: 'raw', bytes: Buffer.from(part.raw, 'base64') };
  if (part.text !== undefined) return { kind: 'text', bytes: Buffer.from(part.text) };
  if (part.data !== undefined)
    return { kind: 'data', bytes: Buffer.from(`${JSON.stringify(part.data, null, 2)}\n`) };
  return undefined;
}

/** The file name a part is saved under: its own, or its artifact's with its place and kind. */
function nameOf(received: Received, artifact: Artifact, parts: number): string {
  const base = safeName(artifact.name ?? artifact.artifactId);
  const suffix = parts > 1 ? `-${received.index + 1}` : '';
  if (received.kind === 'raw') {
    const own = received.filename;
    return own === undefined || own === '' ? `${base}${suffix}` : safeName(own);
  }
  return `${base}${suffix}.${received.kind === 'text' ? 'txt' : 'json'}`;
}

/**
 * Gives a waiting file its name. A hard link fails where the name was taken between the check and
 * now, so nothing is overwritten; where the file system has no hard links, an exclusive copy.
 */
function placeFile(temp: string, path: string): void {
  try {
    linkSync(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
    copyFileSync(temp, path, constants.COPYFILE_EXCL);
  }
  rmSync(temp);
}

/** A part as it arrived: where its bytes wait under a temporary name, or its URL. */
interface Received {
  artifact: number;
  index: number;
  mediaType: string | null;
  filename: string | undefined;
  kind: 'raw' | 'text' | 'data' | undefined;
  temp: string | null;
  bytes: number | null;
  url: string | null;
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
    const dir = resolve(values.dir ?? '.');
    mkdirSync(dir, { recursive: true });
    // Each part goes to disk as it arrives, under a temporary name, so a task of any size is
    // saved in the memory of one part (decision 0173); it is named once the task, read to its
    // end, says what its artifact is called and how many parts it has.
    const received: Received[] = [];
    const client = await openAgent(ref, values, context, io);
    let task;
    try {
      task = await client.getTask(
        { id },
        {
          signal: context.signal,
          onArtifactPart: async (part, at) => {
            const content = contentOf(part);
            const temp = content === undefined ? null : join(dir, `.concord-download-${randomUUID()}`);
            received.push({
              artifact: at.artifact,
              index: at.part,
              mediaType: part.mediaType ?? null,
              filename: part.filename,
              kind: content?.kind,
              temp,
              bytes: content === undefined ? null : content.bytes.length,
              url: part.url ?? null,
            });
            if (temp !== null) await writeFile(temp, content!.bytes, { flag: 'wx' });
          },
        },
      );
    } catch (error) {
      for (const r of received) if (r.temp !== null) rmSync(r.temp, { force: true });
      throw error;
    } finally {
      client.close();
    }
    const wanted = values.artifact;
    const isWanted = (a: Artifact): boolean =>
      wanted === undefined ||
      wanted.includes(a.artifactId) ||
      (a.name !== undefined && wanted.includes(a.name));
    const artifacts = task.artifacts ?? [];
    const saved: Saved[] = [];
    const partsOf = new Map<number, number>();
    for (const r of received) partsOf.set(r.artifact, (partsOf.get(r.artifact) ?? 0) + 1);
    try {
      for (const r of received) {
        const artifact = artifacts[r.artifact];
        if (artifact === undefined || !isWanted(artifact)) continue;
        const entry = { artifactId: artifact.artifactId, part: r.index + 1, mediaType: r.mediaType };
        if (r.temp === null) {
          saved.push({ ...entry, path: null, bytes: null, url: r.url });
          continue;
        }
        const path = freePath(dir, nameOf(r, artifact, partsOf.get(r.artifact) ?? 1));
        placeFile(r.temp, path);
        r.temp = null;
        saved.push({ ...entry, path, bytes: r.bytes, url: null });
      }
    } finally {
      // What was not wanted, and whatever a failure left unnamed.
      for (const r of received) if (r.temp !== null) rmSync(r.temp, { force: true });
    }
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
    if (!artifacts.some(isWanted))
      io.err(`notice: task ${task.id} has no artifact${wanted === undefined ? '' : ' by that name'} to save`);
    return EXIT.OK;
  });
}
