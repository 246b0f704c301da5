/**
 * A large task answer written as it goes out (issue 27, decision 0172). GetTask answers a task as
 * one JSON document, and a task can carry hundreds of megabytes of artifacts: built whole, the
 * answer would hold the task, its wire form, the JSON text and its bytes at once (1.5 GB of server
 * for a 200 MB artifact). Written here instead a part at a time, with the socket's backpressure,
 * it holds one part; and where the store keeps the artifacts in rows (decision 0164) they are read
 * from the store as they are written, so the task is never whole in memory.
 *
 * The text is what the version's codec writes for the whole task, member for member; only the
 * order of members may differ (an artifact's metadata comes after its parts: it is known only once
 * its last update is read), which JSON leaves free (RFC 8259 §4).
 */
import type { Artifact, Task, WireCodec } from '../../protocol/internal.js';
import type { ArtifactPiece } from '../../store/index.js';
import type { TaskAnswer } from '../operations/tasks.js';
import { JsonPieces } from './json-pieces.js';

/**
 * Answers whose parts hold more than this many characters are written in pieces; smaller ones,
 * nearly all, are written whole with the turn's other answers (docs/performance.md, 'End-of-turn
 * writes'), which is cheaper for them.
 */
export const PIECEWISE_ANSWER_CHARS = 1024 * 1024;

/** Pieces are handed to the socket once they reach about this many characters. */
const PIECE_CHARS = 64 * 1024;

/** GetTask's answer on the HTTP bindings: the task's wire form, or its pieces when it is large. */
export function encodeTaskAnswer(codec: WireCodec, answer: TaskAnswer): unknown {
  if (answer.artifacts === undefined && contentChars(answer.task) <= PIECEWISE_ANSWER_CHARS) {
    return codec.encodeTask(answer.task);
  }
  return new JsonPieces(taskPieces(codec, answer.task, answer.artifacts));
}

/** About how many characters the task's parts hold: their text, bytes and URLs. */
function contentChars(task: Task): number {
  let chars = 0;
  for (const artifact of task.artifacts ?? []) {
    for (const part of artifact.parts) chars += (part.text ?? part.raw ?? part.url ?? '').length;
  }
  for (const message of task.history ?? []) {
    for (const part of message.parts) chars += (part.text ?? part.raw ?? part.url ?? '').length;
  }
  return chars;
}

/**
 * The task's JSON in pieces: its other members as the codec writes them, then its history a
 * message at a time, then its artifacts a part at a time, from `artifacts` when the store gave
 * them apart, else from the task.
 */
async function* taskPieces(
  codec: WireCodec,
  task: Task,
  artifacts: AsyncIterable<ArtifactPiece> | undefined,
): AsyncGenerator<string> {
  const head = JSON.stringify(
    codec.encodeTask(Object.assign({}, task, { history: undefined, artifacts: undefined })),
  );
  let out = head.slice(0, -1);
  let members = head.length > 2;
  const member = (name: string): string => {
    const text = `${members ? ',' : ''}"${name}":[`;
    members = true;
    return text;
  };
  if (task.history !== undefined) {
    out += member('history');
    for (let i = 0; i < task.history.length; i++) {
      out += `${i === 0 ? '' : ','}${JSON.stringify(codec.encodeMessage(task.history[i]!))}`;
      if (out.length >= PIECE_CHARS) {
        yield out;
        out = '';
      }
    }
    out += ']';
  }
  // A task read whole writes `artifacts` when it has the member; one read apart, when a row gives
  // an artifact (a split task's read leaves it out when it has none, as `assembleTask` does).
  const source = artifacts ?? (task.artifacts === undefined ? undefined : wholeArtifacts(task.artifacts));
  if (task.artifacts !== undefined) out += member('artifacts');
  let open: { metadata: Artifact['metadata']; parts: number } | undefined;
  for await (const { artifact, append } of source ?? []) {
    if (open === undefined || !append) {
      if (open !== undefined) out += `${closing(codec, open.metadata)},`;
      else if (task.artifacts === undefined) out += member('artifacts');
      open = { metadata: artifact.metadata, parts: 0 };
      out += opening(codec, artifact);
    } else if (artifact.metadata !== undefined) {
      // eslint-disable-next-line no-restricted-syntax -- open-ended metadata: a spread keeps a `__proto__` key plain data, where Object.assign would run its setter
      open.metadata = { ...open.metadata, ...artifact.metadata };
    }
    for (const part of artifact.parts) {
      out += `${open.parts++ === 0 ? '' : ','}${JSON.stringify(codec.encodePart(part))}`;
      if (out.length >= PIECE_CHARS) {
        yield out;
        out = '';
      }
    }
  }
  if (open !== undefined) out += closing(codec, open.metadata);
  if (open !== undefined || task.artifacts !== undefined) out += ']';
  yield `${out}}`;
}

/** A task's artifacts as pieces, each starting its artifact. */
function* wholeArtifacts(artifacts: readonly Artifact[]): Generator<ArtifactPiece> {
  for (const artifact of artifacts) yield { artifact, append: false };
}

/**
 * Starts an artifact: its members as the codec writes them but for its parts, which follow, and
 * its metadata, which an appended update may still add to. A reader that handles parts as they
 * come thus knows their artifact first.
 */
function opening(codec: WireCodec, artifact: Artifact): string {
  const members = codec.encodeArtifact(
    Object.assign({}, artifact, { parts: [], metadata: undefined }),
  ) as Record<string, unknown>;
  delete members.parts;
  // Never `{}`: every artifact has its artifactId.
  return `${JSON.stringify(members).slice(0, -1)},"parts":[`;
}

/** Ends an artifact's parts, then writes its metadata as joined from all its updates. */
function closing(codec: WireCodec, metadata: Artifact['metadata']): string {
  if (metadata === undefined) return ']}';
  const encoded = codec.encodeArtifact({ artifactId: '-', parts: [], metadata }) as { metadata?: unknown };
  return `],"metadata":${JSON.stringify(encoded.metadata)}}`;
}
