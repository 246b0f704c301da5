/**
 * How an artifact update with `append: true` joins the artifact it names (A2A 1.0 §4.2.2,
 * TaskArtifactUpdateEvent): its parts follow the parts already sent, and its metadata keys join
 * (and override) the artifact's. Written once, for the server's projection of a task and for the
 * stores that keep a long task's artifact updates as rows and fold them back when it is read.
 */
import type { Artifact } from './model.js';

/** The artifact after `chunk` is appended to `existing`; neither is changed. */
export function appendArtifactChunk(existing: Artifact, chunk: Artifact): Artifact {
  const merged: Artifact = Object.assign({}, existing, { parts: [...existing.parts, ...chunk.parts] });
  // eslint-disable-next-line no-restricted-syntax -- open-ended metadata: a spread keeps a `__proto__` key plain data, where Object.assign would run its setter
  if (chunk.metadata !== undefined) merged.metadata = { ...existing.metadata, ...chunk.metadata };
  return merged;
}
