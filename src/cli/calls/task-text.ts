/**
 * The `text` output of the calling commands, a2a-cli SPEC v0.2 §9.2's floor (decision 0169): one
 * `Label: value` field per line with labels that never change, no terminal control sequences
 * (an agent's own text included: its control characters are written as `\x1b`-style escapes),
 * and content that needs several lines as a block (its `Label:` line, the content, a blank line),
 * never interleaved with fields. Every rendering of a task names its id, context and state, in
 * the state's wire spelling (`TASK_STATE_INPUT_REQUIRED`) so that a state this version does not
 * know is written as it came.
 */
import {
  TASK_STATES,
  type Artifact,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
  type TaskState,
  type TaskStatus,
} from '../../protocol/index.js';
import { isInterrupted, statusNote } from './task-outcome.js';

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

/**
 * Text without terminal control sequences: every C0 and C1 control character but newline and
 * tab, and DEL, is written as a visible escape (`\x1b`), so an agent's text cannot drive the
 * terminal.
 */
export function safe(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    const control = (code < 0x20 && c !== '\n' && c !== '\t') || (code >= 0x7f && code <= 0x9f);
    out += control ? `\\x${code.toString(16).padStart(2, '0')}` : c;
  }
  return out;
}

/** One field: `Label: value`, the value on one line. */
export function field(label: string, value: string | number | boolean): string {
  return `${label}: ${safe(String(value).replace(/\s*[\r\n]+\s*/g, ' '))}\n`;
}

/**
 * A block: its own `Label: value` line, the content (ending with a newline), and the blank line
 * closing it.
 */
export function block(label: string, value: string, content: string): string {
  const body = safe(content);
  return `${field(label, value)}${body}${body.endsWith('\n') ? '' : '\n'}\n`;
}

/** The size in bytes of base64 content. */
function base64Bytes(raw: string): number {
  const clean = raw.replace(/\s+/g, '');
  return Math.floor((clean.replace(/=+$/, '').length * 3) / 4);
}

/**
 * The detail level (SPEC §4.5, §5.2): concise by default; `--verbose` shows each part on its own
 * with its kind, media type and metadata, an artifact's description and metadata, a task's
 * history and metadata, and the message `send` sent. One command runs per process, so the flag
 * is set once, before anything is written.
 */
let verbose = false;

/** Sets the detail level from `--verbose`. */
export function setVerbose(on: boolean): void {
  verbose = on;
}

/** True under `--verbose`. */
export function isVerbose(): boolean {
  return verbose;
}

/** Metadata and extensions as bracketed lines of block content (`--verbose`), or nothing. */
function extraLines(metadata: unknown, extensions?: readonly string[]): string {
  let out = '';
  if (metadata !== undefined && Object.keys(metadata as object).length > 0)
    out += `[metadata ${JSON.stringify(metadata)}]\n`;
  if (extensions !== undefined && extensions.length > 0) out += `[extensions ${extensions.join(', ')}]\n`;
  return out;
}

/** A part under `--verbose`: a line naming its number, kind and media type, then its content. */
function partDetail(part: Part, index: number): string {
  const kind =
    part.text !== undefined
      ? 'text'
      : part.data !== undefined
        ? 'data'
        : part.raw !== undefined || part.url !== undefined
          ? 'file'
          : 'empty';
  const type = part.mediaType === undefined || part.mediaType === '' ? '' : `, ${part.mediaType}`;
  return `[part ${index + 1}: ${kind}${type}]\n${partText(part)}${extraLines(part.metadata)}`;
}

/** A message's parts as block content: collapsed (concise), or one by one (`--verbose`). */
export function partsText(parts: readonly Part[]): string {
  return verbose ? parts.map(partDetail).join('') : parts.map(partText).join('');
}

/**
 * A part as block content, ending with a newline: text as it is, data as indented JSON, a file as
 * its name, media type and size (never its bytes; SPEC §8.2), anything else named, never dropped.
 */
export function partText(part: Part): string {
  if (part.text !== undefined) return part.text.endsWith('\n') ? part.text : `${part.text}\n`;
  if (part.data !== undefined) return `${JSON.stringify(part.data, null, 2)}\n`;
  const name = part.filename === undefined || part.filename === '' ? '(no name)' : part.filename;
  const type = part.mediaType === undefined || part.mediaType === '' ? '(no media type)' : part.mediaType;
  if (part.raw !== undefined) return `[file ${name}, ${type}, ${base64Bytes(part.raw)} bytes]\n`;
  if (part.url !== undefined) return `[file ${name}, ${type}, size unknown, at ${part.url}]\n`;
  return '[a part with no text, data or file]\n';
}

/** An artifact as a block: `Artifact: <name> (<artifactId>)`, then its parts. */
export function artifactBlock(artifact: Artifact): string {
  const name = artifact.name === undefined || artifact.name === '' ? '' : `${artifact.name} `;
  const about =
    verbose && artifact.description !== undefined && artifact.description !== ''
      ? `[description ${artifact.description}]\n`
      : '';
  const extra = verbose ? extraLines(artifact.metadata, artifact.extensions) : '';
  return block('Artifact', `${name}(${artifact.artifactId})`, about + partsText(artifact.parts) + extra);
}

/** The fields of a status: the state, when it changed, and its message on one line. */
export function statusFields(status: TaskStatus): string {
  let out = field('State', status.state);
  if (status.timestamp !== undefined) out += field('Timestamp', status.timestamp);
  const note = statusNote(status);
  if (note !== '') out += field('Status message', note);
  return out;
}

/** How to go on with a task, as a copy-pasteable command (SPEC §6.3, INTERACT_004). */
export interface Resume {
  /** The `-a` argument naming the agent again. */
  agent: string;
}

/** The command that answers a task waiting for input or auth, or follows one still running. */
export function resumeField(task: Task, resume: Resume | undefined): string {
  if (resume === undefined) return '';
  const state = task.status.state as string;
  if (isInterrupted(state))
    return field('Resume', `concord send -a ${resume.agent} --task-id ${task.id} "<reply>"`);
  if (state === 'TASK_STATE_SUBMITTED' || state === 'TASK_STATE_WORKING')
    return field('Follow', `concord task get ${task.id} -a ${resume.agent} --wait`);
  return '';
}

/**
 * A task: its fields (ids, state, status message, how to resume), then its artifacts as blocks,
 * then, when asked, its history as a block.
 */
export function taskText(task: Task, options: { history?: boolean; resume?: Resume } = {}): string {
  let out = field('Task', task.id) + field('Context', task.contextId) + statusFields(task.status);
  out += resumeField(task, options.resume);
  for (const artifact of task.artifacts ?? []) out += artifactBlock(artifact);
  // --verbose shows whatever history the agent sent; concise output only when asked (--history).
  if (options.history === true || (verbose && (task.history ?? []).length > 0)) {
    const lines = (task.history ?? []).map((message) => {
      const who =
        message.role === 'ROLE_AGENT' ? 'agent' : message.role === 'ROLE_USER' ? 'user' : message.role;
      if (verbose)
        return `${who} (${message.messageId}):\n${partsText(message.parts)}${extraLines(message.metadata, message.extensions)}`.trimEnd();
      return `${who}: ${message.parts.map(partText).join('').trimEnd()}`;
    });
    out += block('History', `${lines.length} message(s)`, lines.join('\n'));
  }
  if (verbose && task.metadata !== undefined && Object.keys(task.metadata).length > 0)
    out += block('Metadata', 'task', JSON.stringify(task.metadata, null, 2));
  return out;
}

/** The message `send` sent, as a block (`--verbose`: what was exchanged, both ways). */
export function sentText(message: Message): string {
  return block(
    'Sent',
    `${message.messageId}, ${message.parts.length} part(s)`,
    partsText(message.parts) + extraLines(message.metadata, message.extensions),
  );
}

/** A direct reply (no task): its ids as fields, its parts as a block. */
export function messageText(message: Message): string {
  let out = field('Message', message.messageId) + field('Role', message.role);
  if (message.contextId !== undefined) out += field('Context', message.contextId);
  if (message.taskId !== undefined) out += field('Task', message.taskId);
  const extra = verbose ? extraLines(message.metadata, message.extensions) : '';
  return out + block('Content', `${message.parts.length} part(s)`, partsText(message.parts) + extra);
}

/**
 * One streamed event in the field-and-block form, ending with a blank line: `Event:` names its
 * kind; status updates and artifact updates name the task, context (and state) they belong to.
 */
export function eventText(event: StreamResponse): string {
  if ('task' in event) {
    const text = field('Event', 'task') + taskText(event.task);
    return text.endsWith('\n\n') ? text : `${text}\n`;
  }
  if ('message' in event) return field('Event', 'message') + messageText(event.message);
  if ('statusUpdate' in event) {
    const update = event.statusUpdate;
    return `${field('Event', 'status-update') + field('Task', update.taskId) + field('Context', update.contextId) + statusFields(update.status)}\n`;
  }
  const update = event.artifactUpdate;
  let out =
    field('Event', 'artifact-update') + field('Task', update.taskId) + field('Context', update.contextId);
  if (update.append === true) out += field('Append', true);
  if (update.lastChunk === true) out += field('Last chunk', true);
  return out + artifactBlock(update.artifact);
}
