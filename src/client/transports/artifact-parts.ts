/**
 * GetTask read as it arrives (decision 0173): each artifact part of the answer is decoded and
 * handed to the caller as soon as it is whole, and let go of, so a task of hundreds of megabytes
 * is read in the memory of its largest part. The rest of the answer, the task without its parts,
 * is decoded at the end as any answer is. Parts are read as `decodeTask` reads them in a task,
 * liberally unless the client reads strictly: one the codec cannot read is skipped with a warning.
 */
import { A2AError, JsonSplitter, readLiberally, type Part, type Task } from '../../protocol/internal.js';
import { A2ALocalError } from '../client-errors.js';
import { readAnswer, type AnswerReading } from './answer-reading.js';
import type { WireBinding } from './wire-binding.js';
import { parseJsonBody } from './wire-errors.js';

/** Receives each part of a task's artifacts, with its artifact's index and its own (A2AClient `getTask`). */
export type ArtifactPartHandler = (
  part: Part,
  at: { artifact: number; part: number },
) => void | Promise<void>;

/**
 * Reads a 2xx GetTask answer from its chunks, handing each artifact part to `onPart` (awaited, so
 * a slow handler slows the read: the socket's backpressure). Returns the task, its artifacts
 * without parts. `maxChars` bounds one part and the rest of the answer, not the whole.
 */
export async function readTaskInParts(
  chunks: AsyncIterable<string>,
  binding: WireBinding,
  answer: { status: number; url: string },
  onPart: ArtifactPartHandler,
  reading: AnswerReading,
  maxChars: number,
): Promise<Task> {
  const { codec, resultPath } = binding;
  const splitter = new JsonSplitter(
    [...resultPath, 'artifacts', '*', 'parts'],
    JSON.stringify(codec.encodePart({ text: '' })),
    maxChars,
  );
  const base = resultPath.map((name) => `/${name}`).join('');
  for await (const chunk of chunks) {
    for (const element of split(splitter, chunk, answer)) {
      const [artifact = 0, index = 0] = element.at;
      const path = `${base}/artifacts/${artifact}/parts/${index}`;
      const json = parseJsonBody(element.text, answer.status, answer.url);
      const part = readItem(() => codec.decodePart(json, path), path, answer, reading);
      if (part !== undefined) await onPart(part, { artifact, part: index });
    }
  }
  const rest = parseJsonBody(skeletonOf(splitter, answer.url), answer.status, answer.url);
  // The artifacts are read one by one, so that an odd one never shifts the others: the parts
  // handed over name their artifact by its place in the answer.
  const holder = resultPath.reduce<unknown>((at, name) => (isObject(at) ? at[name] : undefined), rest);
  const wire = isObject(holder) && Array.isArray(holder.artifacts) ? holder.artifacts : undefined;
  if (wire !== undefined) delete (holder as Record<string, unknown>).artifacts;
  const task = binding.result('getTask', answer.status, rest, answer.url) as Task;
  if (wire === undefined) return task;
  task.artifacts = wire.map((value, i) => {
    const path = `${base}/artifacts/${i}`;
    const artifact = readItem(() => codec.decodeArtifact(value, path), path, answer, reading);
    // Kept in its place, unread: its parts were handed over under this index already.
    const kept = artifact ?? {
      artifactId: stringOr(isObject(value) ? value.artifactId : undefined),
      parts: [],
    };
    // The placeholder that kept each emptied `parts` readable goes.
    kept.parts = [];
    return kept;
  });
  return task;
}

/** The elements a chunk completes; a bound passed is the agent's answer's fault. */
function split(splitter: JsonSplitter, chunk: string, answer: { status: number; url: string }) {
  try {
    return splitter.push(chunk);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new A2ALocalError('BAD_RESPONSE', `${answer.url} answered ${error.message}`, {
      httpStatus: answer.status,
      url: answer.url,
    });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function skeletonOf(splitter: JsonSplitter, url: string): string {
  try {
    return splitter.end();
  } catch (error) {
    throw new A2ALocalError('BAD_RESPONSE', `${url} answered ${(error as Error).message}`, { url });
  }
}

/** One item decoded, or undefined when liberal reading skips it (reported to `onWarning`). */
function readItem<T>(
  decode: () => T,
  path: string,
  answer: { status: number; url: string },
  reading: AnswerReading,
): T | undefined {
  if (reading.reading === 'strict') return readAnswer(decode, answer.url, answer.status, reading);
  try {
    return readLiberally(decode, (warning) =>
      reading.onWarning?.({ url: answer.url, path: warning.path, message: warning.message }),
    );
  } catch (error) {
    if (!(error instanceof A2AError)) throw error;
    reading.onWarning?.({ url: answer.url, path, message: `item skipped: ${error.message}` });
    return undefined;
  }
}
