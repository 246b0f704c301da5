/**
 * What the model reads back from `send_to_agent`: the target's answer reduced to compact JSON —
 * the task's state, its status message and its artifacts' text and data, or the parts of a direct
 * message (A2A 1.0 §3.1.1) — or `{error}` when the send was refused. IDs, timestamps and history are
 * left out: they cost tokens and the model cannot use them (docs/decisions/0021-agent-tool.md).
 */
import type { Artifact, Part, SendMessageResponse, TaskState } from '../../protocol/index.js';

/** A part as the model sees it: text and data as they are, files by reference. */
type CompactPart = { text: string } | { data: unknown } | { file: string; mediaType?: string };

function compactPart(part: Part): CompactPart | undefined {
  if (part.text !== undefined) return { text: part.text };
  if (part.data !== undefined) return { data: part.data };
  const file = part.url ?? part.filename ?? (part.raw === undefined ? undefined : 'attached file');
  if (file === undefined) return undefined;
  return part.mediaType === undefined ? { file } : { file, mediaType: part.mediaType };
}

function compactParts(parts: Part[]): CompactPart[] {
  return parts.flatMap((part) => compactPart(part) ?? []);
}

function compactArtifact(artifact: Artifact): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (artifact.name !== undefined && artifact.name !== '') out.name = artifact.name;
  out.parts = compactParts(artifact.parts);
  return out;
}

/** `TASK_STATE_INPUT_REQUIRED` -> `input-required`: the same word, fewer tokens. */
function shortState(state: TaskState): string {
  return state
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

/** Cuts a result the model would otherwise drown in; the note says how much was left out. */
export function bounded(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)} ... [truncated: ${text.length - maxChars} more characters]`;
}

/** The tool result for a target's answer. */
export function agentToolResult(response: SendMessageResponse, maxChars: number): string {
  if ('message' in response) {
    return bounded(JSON.stringify({ reply: compactParts(response.message.parts) }), maxChars);
  }
  const { task } = response;
  const out: Record<string, unknown> = { state: shortState(task.status.state) };
  // The status message says why a task failed or what input it needs.
  const said = compactParts(task.status.message?.parts ?? []);
  if (said.length > 0) out.message = said;
  if (task.artifacts !== undefined && task.artifacts.length > 0) {
    out.artifacts = task.artifacts.map(compactArtifact);
  }
  return bounded(JSON.stringify(out), maxChars);
}

/** The tool result for a send that did not happen or was refused. */
export function agentToolError(message: string): string {
  return JSON.stringify({ error: message });
}
