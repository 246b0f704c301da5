/**
 * How tasks, messages and parts read in a terminal (the human side of the calling commands): a
 * state as the words A2A 0.3 used (`input-required`), a part as its text, its data as indented
 * JSON, a file as its name, type and location. Machines get `--json` instead.
 */
import {
  TASK_STATES,
  type Artifact,
  type Message,
  type Part,
  type Task,
  type TaskState,
} from '../../protocol/index.js';

/** `TASK_STATE_INPUT_REQUIRED` -> `input-required`. */
export function stateWord(state: TaskState | string): string {
  return state
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

/** Parses `working`, `input-required` or `TASK_STATE_WORKING` into a TaskState, or undefined. */
export function parseState(value: string): TaskState | undefined {
  const name = value.trim().toUpperCase().replace(/-/g, '_');
  const state = (name.startsWith('TASK_STATE_') ? name : `TASK_STATE_${name}`) as TaskState;
  return STATES.has(state) ? state : undefined;
}

const STATES = new Set<string>(TASK_STATES);

/** A part as terminal text; always ends where the content ends (data and files end with a newline). */
export function partText(part: Part): string {
  if (part.text !== undefined) return part.text;
  if (part.data !== undefined) return `${JSON.stringify(part.data, null, 2)}\n`;
  const about = [part.filename, part.mediaType].filter((x) => x !== undefined && x !== '').join(', ');
  if (part.url !== undefined) return `[file${about === '' ? '' : ` ${about}`}: ${part.url}]\n`;
  if (part.raw !== undefined) {
    const bytes = Math.floor((part.raw.replace(/=+$/, '').length * 3) / 4);
    return `[file${about === '' ? '' : ` ${about}`}: ${bytes} bytes inline]\n`;
  }
  return '';
}

/** The text of a message's parts on one line or more. */
export function messageText(message: Message | undefined): string {
  if (message === undefined) return '';
  return message.parts.map(partText).join('').trim();
}

/** An artifact's heading. */
export function artifactHeading(artifact: Artifact): string {
  return `── ${artifact.name ?? artifact.artifactId} ──`;
}

/** A whole artifact, ending with a newline. */
export function artifactText(artifact: Artifact): string {
  const body = artifact.parts.map(partText).join('');
  return `${artifactHeading(artifact)}\n${body}${body.endsWith('\n') || body === '' ? '' : '\n'}`;
}

/** A task as `get` and `cancel` print it: ids, state, artifacts, and the history when asked. */
export function taskText(task: Task, withHistory: boolean): string {
  const lines = [`task     ${task.id}`, `context  ${task.contextId}`];
  const when = task.status.timestamp === undefined ? '' : ` (${task.status.timestamp})`;
  const note = messageText(task.status.message);
  lines.push(`state    ${stateWord(task.status.state)}${when}${note === '' ? '' : `: ${note}`}`);
  let out = `${lines.join('\n')}\n`;
  for (const artifact of task.artifacts ?? []) out += artifactText(artifact);
  if (withHistory) {
    out += `history (${task.history?.length ?? 0} messages):\n`;
    for (const message of task.history ?? []) {
      const who = message.role === 'ROLE_AGENT' ? 'agent' : 'user';
      out += `  ${who}: ${messageText(message).replace(/\n/g, '\n    ')}\n`;
    }
  }
  return out;
}
